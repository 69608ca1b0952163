#pragma once
/// The overload set for std::visit over a std::variant (the "overloaded" idiom of
/// cppreference's std::visit page): `std::visit(Overloaded{[](const A&) {...}, ...}, v)`.
/// Torch-free.

namespace trainscope {

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

}  // namespace trainscope
