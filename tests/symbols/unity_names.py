#!/usr/bin/env python3
"""ctest `unity_names` (issue 45): the unity builds compile several .cpp files as one, so two
files' internal helpers (an anonymous namespace or `static`) with one name would meet. The same
signature fails to compile; different signatures compile and a call may silently bind to the
other file's helper. This check refuses both before the compiler sees them: within one unity
target, no internal function, variable or type name is defined by two of its files, and none
equals a free function declared in a header of the project (aliases to the same entity, such as
`namespace fs = std::filesystem;`, are allowed).

usage: unity_names.py BUILD_DIR SOURCE_DIR   (exit 1 and a list when a name is shared)
       unity_names.py --selfcheck              (the parser finds known helpers, skips aliases)
"""
import collections
import glob
import os
import re
import sys

DECL = re.compile(r'^(?:\[\[\w+\]\]\s*)?(?:(?:inline|constexpr|const|static|thread_local)\s+)*'
                  r'[\w:<>,\s\*&]+?\b(\w+)\s*(?:\(|=|\{|\[)')
TYPE = re.compile(r'^(?:struct|class|enum(?:\s+class)?|union)\s+(\w+)')
ALIAS = re.compile(r'^(?:using\s+\w+\s*=|namespace\s+\w+\s*=)')
KEYWORDS = {'if', 'for', 'while', 'return', 'namespace', 'using', 'struct', 'class', 'enum',
            'template', 'typedef', 'switch', 'else', 'do', 'case', 'operator'}


def internal_names(path):
    """Names defined at the top level of an anonymous namespace, or `static` at file scope,
    qualified by the named namespaces around them ("a::bad"): files of one unity batch may each
    keep helpers of one name in a namespace of their own (core_tests' suites do)."""
    names = set()
    depth = 0
    anon = []  # brace depths at which an anonymous namespace was opened
    named = []  # (name, brace depth before it opened) of the named namespaces open
    for line in open(path, encoding='utf-8', errors='replace'):
        code = re.sub(r'//.*', '', line)
        code = re.sub(r'"(?:\\.|[^"\\])*"', '""', code)
        code = re.sub(r"'(?:\\.|[^'\\])*'", "''", code)
        stripped = code.strip()
        if re.match(r'^namespace\s*\{', stripped):
            anon.append(depth)
            depth += 1
            continue
        opened = re.match(r'^namespace\s+([\w:]+)\s*\{', stripped)
        if opened:
            named.append((opened.group(1), depth))
        prefix = ''.join(n + '::' for n, _ in named)
        at_top = not code.startswith((' ', '\t', '}', '#'))
        in_anon_top = anon and depth == anon[-1] + 1
        if at_top and not ALIAS.match(stripped):
            if in_anon_top:
                m = TYPE.match(stripped) or DECL.match(stripped)
                if m and m.group(1) not in KEYWORDS:
                    names.add(prefix + m.group(1))
            elif stripped.startswith('static '):
                m = DECL.match(stripped)
                if m and m.group(1) not in KEYWORDS:
                    names.add(prefix + m.group(1))
        depth += code.count('{') - code.count('}')
        while anon and depth <= anon[-1]:
            anon.pop()
        while named and depth <= named[-1][1]:
            named.pop()
    return names


def public_functions(source_dir):
    names = set()
    pattern = re.compile(r'^(?:\[\[\w+\]\]\s*)?(?:inline\s+|constexpr\s+)*[\w:]+(?:<[^;()]*>)?'
                         r'[\s\*&]+(\w+)\(')
    for folder in ('core', 'cli', 'gui'):
        for h in glob.glob(os.path.join(source_dir, folder, '**', '*.h'), recursive=True):
            for line in open(h, encoding='utf-8', errors='replace'):
                m = pattern.match(line)
                if m and m.group(1) not in KEYWORDS:
                    names.add(m.group(1))
    return names


def selfcheck():
    import tempfile
    text = ('namespace a {\nnamespace {\n\nnamespace fs = std::filesystem;\n'
            'using Path = fs::path;\n[[noreturn]] void bad(const Path& f) {\n  if (x) {\n'
            '    int inner = 1;\n  }\n}\nconst at::TensorOptions kF32 = at::kFloat;\n'
            'struct Row {\n  int n;\n};\nstd::string shapeText(const std::vector<int64_t>& s,\n'
            '                      int w) {\n  return "}";\n}\n\n}  // namespace\n\n'
            'void publicOne() {}\nstatic int counter = 0;\n}  // namespace a\n')
    with tempfile.NamedTemporaryFile('w', suffix='.cpp', delete=False) as f:
        f.write(text)
    try:
        got = internal_names(f.name)
    finally:
        os.unlink(f.name)
    want = {'a::bad', 'a::kF32', 'a::Row', 'a::shapeText', 'a::counter'}
    if got != want:
        print(f'unity_names selfcheck: found {sorted(got)}, expected {sorted(want)}')
        return 1
    print('unity_names selfcheck: ok')
    return 0


def main():
    if sys.argv[1:] == ['--selfcheck']:
        return selfcheck()
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    build_dir, source_dir = sys.argv[1], os.path.realpath(sys.argv[2])
    targets = collections.defaultdict(set)
    for u in glob.glob(os.path.join(build_dir, '**', 'Unity', 'unity_*.cxx'), recursive=True):
        target = os.path.dirname(os.path.dirname(u))
        targets[target].update(re.findall(r'#include "([^"]+)"', open(u).read()))
    if not targets:
        print('unity_names: no unity batches under', build_dir, '(TRAINSCOPE_UNITY=OFF?)')
        return 0
    public = public_functions(source_dir)
    problems = 0
    for target, files in sorted(targets.items()):
        seen = collections.defaultdict(list)
        for f in sorted(files):
            for n in internal_names(f):
                seen[n].append(os.path.relpath(f, source_dir))
        for n, fs in sorted(seen.items()):
            if len(fs) > 1:
                problems += 1
                print(f'{os.path.basename(target)}: internal name {n!r} defined in {", ".join(fs)}')
            if n.rpartition('::')[2] in public:
                problems += 1
                print(f'{os.path.basename(target)}: internal name {n!r} in {", ".join(fs)} is also '
                      'a function declared in a header')
        print(f'{os.path.basename(target)}: {len(files)} files, {len(seen)} internal names checked')
    if problems:
        print(f'unity_names: {problems} shared name(s): give each file\'s helper a name of its own')
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
