#!/usr/bin/env python3
"""Asks a real nginx which directives it knows, where each is allowed and how many
arguments it takes, and writes the table `detour check nginx` reads.

nginx -t stops at its first error and words it after what it checked: an unknown name,
a name not allowed in this block, a block directive given `;`, a wrong argument count,
a flag that is not on/off, a variable where a value is read at start, a setting given twice. Each question is one tiny configuration
with the probe on a line of its own, so the answer is the error at that line (or none).

    scripts/nginx-directives/probe.py --modules DIR [--nginx /usr/sbin/nginx] [--out FILE]
    scripts/nginx-directives/probe.py --verify TABLE [--modules DIR]   # the installed nginx still agrees

DIR holds the dynamic modules (`*.so`) to probe besides the built-in ones: Debian's
libnginx-mod-* packages unpacked (scripts/nginx-directives/generate.sh fetches them).
"""
import argparse, concurrent.futures, glob, os, re, struct, subprocess, sys, tempfile

CONTEXTS = {
    # name: configuration around the probe line (@), events{} added where the file needs one.
    'main': '@\nevents{}\n',
    'events': 'events{\n@\n}\n',
    'http': 'events{}\nhttp{\n@\n}\n',
    'server': 'events{}\nhttp{\nserver{\n@\n}\n}\n',
    'location': 'events{}\nhttp{\nserver{\nlocation /{\n@\n}\n}\n}\n',
    'if-in-server': 'events{}\nhttp{\nserver{\nif ($uri){\n@\n}\n}\n}\n',
    'if-in-location': 'events{}\nhttp{\nserver{\nlocation /{\nif ($uri){\n@\n}\n}\n}\n}\n',
    'limit_except': 'events{}\nhttp{\nserver{\nlocation /{\nlimit_except GET{\n@\n}\n}\n}\n}\n',
    'upstream': 'events{}\nhttp{\nupstream u{\n@\n}\n}\n',
    'mail': 'events{}\nmail{\n@\n}\n',
    'mail-server': 'events{}\nmail{\nserver{\n@\n}\n}\n',
    'stream': 'events{}\nstream{\n@\n}\n',
    'stream-server': 'events{}\nstream{\nserver{\n@\n}\n}\n',
    'stream-upstream': 'events{}\nstream{\nupstream u{\n@\n}\n}\n',
    'rtmp': 'events{}\nrtmp{\n@\n}\n',
    'rtmp-server': 'events{}\nrtmp{\nserver{\n@\n}\n}\n',
    'rtmp-application': 'events{}\nrtmp{\nserver{\napplication a{\n@\n}\n}\n}\n',
}
# Modules others need loaded first (lua and set-misc on ndk, stream's on stream), loaded for
# every dynamic module probed; with rtmp, the modules whose blocks the contexts open.
FIRST = ['ndk_http_module.so', 'ngx_stream_module.so', 'ngx_mail_module.so']
BLOCK_MODULES = FIRST + ['ngx_rtmp_module.so']
MAX_ARGS = 8  # NGX_CONF_MAX_ARGS: a fixed count is at most 8; 9 accepted means "or more"
# Values a setting may accept, tried in turn to learn whether it may be given twice.
TRY_VALUES = ['on', '1', '10s', '1k', 'x', '/tmp', '127.0.0.1:1', 'off', 'GET', '$uri']

WORD = re.compile(rb'[a-z][a-z0-9_]{1,47}')
ERROR = re.compile(r'\[emerg\] \d+#\d+: (.*) in (\S+):(\d+)$', re.M)
ERROR_NOLINE = re.compile(r'\[emerg\] \d+#\d+: (.*)$', re.M)


class Prober:
    def __init__(self, nginx, modules):
        self.nginx = nginx
        self.modules = modules
        self.dir = tempfile.mkdtemp(prefix='detour-probe-')
        # The Perl module loads nginx.pm, unpacked beside the modules rather than installed.
        self.env = dict(os.environ)
        if modules:
            root = os.path.abspath(os.path.join(modules, '..', '..', '..', '..'))
            found = glob.glob(os.path.join(root, 'usr', 'lib', '*', 'perl*', '*', 'nginx.pm'))
            if found: self.env['PERL5LIB'] = os.path.dirname(found[0])
        self.counter = 0

    def loads(self, wanted):
        """load_module lines for `wanted`, the modules others build on first."""
        names = [m for m in FIRST if m in wanted] + [m for m in wanted if m not in FIRST]
        paths = [os.path.join(self.modules, m) for m in names]
        return ''.join(f'load_module {p};\n' for p in paths if os.path.exists(p))

    def run(self, text):
        """nginx -t on `text`: (message, line) of the first error, or None when it passes."""
        fd, path = tempfile.mkstemp(dir=self.dir, suffix='.conf')
        with os.fdopen(fd, 'w') as f:
            f.write(text)
        try:
            done = subprocess.run([self.nginx, '-p', self.dir + '/', '-c', path, '-t', '-q', '-e', 'stderr'],
                                  capture_output=True, text=True, timeout=30, env=self.env)
        finally:
            os.unlink(path)
        m = ERROR.search(done.stderr)
        if m: return m.group(1), int(m.group(3))
        m = ERROR_NOLINE.search(done.stderr)
        if m: return m.group(1), 0
        # Failed later, without an [emerg] (`perl_require x` makes Perl fail): the statement
        # itself was taken.
        return None if done.returncode == 0 else ('failed: ' + done.stderr.strip()[-200:], -1)

    def probe(self, modules, context, statement):
        """The error nginx gives for `statement` in `context`, when it is at the statement's line."""
        head = self.loads(modules)
        text = head + CONTEXTS[context].replace('@', statement)
        # nginx reports a statement at its end: its last `;`, or the `{` that opens its block.
        end = statement.rfind(';') if statement.endswith(';') else statement.index('{')
        line = text[:text.index(statement)].count('\n') + 1 + statement[:end].count('\n')
        result = self.run(text)
        if result is None: return None
        message, at = result
        return message if at == line else None


def candidates(paths):
    """Lower-case words in the binaries, with the files they are in: directive names are
    among them. Each NUL-terminated word counts, and each word a relocation points at, since
    the linker merges a name into the tail of a longer one (`root` inside `chroot`, `events`
    inside `nchan_subscribe_events`) and only the command's pointer finds it there."""
    names = {}
    for path in paths:
        data = open(path, 'rb').read()
        words = {m.group().decode() for m in re.finditer(rb'(?<=\x00)[a-z][a-z0-9_]{1,47}(?=\x00)', data)}
        for word in words | referenced_words(data):
            names.setdefault(word, set()).add(os.path.basename(path))
    return names


def referenced_words(data):
    """Words that R_X86_64_RELATIVE relocations of an ELF64 file point at."""
    if data[:5] != b'\x7fELF\x02': return set()
    shoff, = struct.unpack_from('<Q', data, 0x28)
    shentsize, shnum = struct.unpack_from('<HH', data, 0x3A)
    # (type, address, file offset, size) of each section
    sections = [struct.unpack_from('<4xIQQQQ', data, shoff + i * shentsize)[0:1] + struct.unpack_from('<QQQ', data, shoff + i * shentsize + 16)
                for i in range(shnum)]
    loaded = [(address, size, offset) for kind, address, offset, size in sections if kind != 8 and address]  # 8: NOBITS
    found = set()
    for kind, _, offset, size in sections:
        if kind != 4: continue  # RELA
        for at in range(offset, offset + size - 23, 24):
            _, info, addend = struct.unpack_from('<QQq', data, at)
            if info & 0xffffffff != 8: continue  # RELATIVE
            for address, length, start in loaded:
                if address <= addend < address + length:
                    text = data[addend - address + start:addend - address + start + 49].split(b'\x00', 1)[0]
                    if WORD.fullmatch(text): found.add(text.decode())
                    break
    return found


def counts_text(accepted):
    """[0, 1, 2] -> '0-2'; 9 accepted (more than a fixed count can be) -> a trailing '+'."""
    more = 9 in accepted
    nums = sorted(n for n in accepted if n <= MAX_ARGS)
    if more:
        # 1MORE/2MORE/ANY: every count from the smallest up.
        return f'{nums[0]}+' if nums else '9+'
    runs, start = [], None
    for n in nums:
        if start is None: start = prev = n
        elif n == prev + 1: prev = n
        else: runs.append((start, prev)); start = prev = n
    if start is not None: runs.append((start, prev))
    return ','.join(str(a) if a == b else f'{a}-{b}' for a, b in runs) or '-'


def shape(prober, modules, name, context):
    """(kind, counts, value) of `name` in `context`, or None when it is not allowed there. The
    value is `flag` (on/off only), `constant` (one argument, which nginx reads when it starts:
    a variable there is an invalid value) or `-`."""
    zero = prober.probe(modules, context, f'{name};')
    if zero is not None and ('is not allowed here' in zero or zero.startswith('unknown directive')):
        return None
    block = zero is not None and 'has no opening "{"' in zero
    accepted, flag = [], False
    for n in range(0, MAX_ARGS + 2):
        args = ' '.join(['x'] * n)
        statement = f'{name} {args} {{\n}}' if block else f'{name} {args};'
        message = prober.probe(modules, context, statement)
        if message and message.startswith('invalid number of arguments'): continue
        accepted.append(n)
        if n == 1 and message and 'it must be "on" or "off"' in message: flag = True
    value = 'flag' if flag else '-'
    if not flag and not block and 1 in accepted:
        message = prober.probe(modules, context, f'{name} $uri;')
        if message and message.endswith('directive invalid value'): value = 'constant'
    return ('block' if block else 'simple', counts_text(accepted), value)


def takes(counts, n):
    """Whether a counts text (`1`, `1-2`, `1,3`, `2+`) accepts n arguments."""
    for part in counts.split(','):
        if part.endswith('+'):
            if part[:-1].isdigit() and n >= int(part[:-1]): return True
        elif '-' in part:
            # `-` alone: no count is accepted.
            low, _, high = part.partition('-')
            if low.isdigit() and high.isdigit() and int(low) <= n <= int(high): return True
        elif part.isdigit() and int(part) == n:
            return True
    return False


def repeats(prober, modules, name, context, kind, counts):
    """'once' when nginx calls a second one duplicate whatever the tried values, 'many' when it
    takes two of some value, 'off-once' when it takes two of some value but calls a second one
    duplicate where either is `off` (proxy_redirect: many rewrites, or none), '?' when no tried
    value is accepted at all."""
    if kind == 'block' or not takes(counts, 1):
        return '-'
    forms = TRY_VALUES + (['x x'] if takes(counts, 2) else [])
    said = {}
    for value in forms:
        if prober.probe(modules, context, f'{name} {value};') is not None: continue
        said[value] = prober.probe(modules, context, f'{name} {value};\n{name} {value};')
    if not said:
        return '?'
    if all(message is not None and 'is duplicate' in message for message in said.values()):
        return 'once'
    taken = [value for value, message in said.items() if message is None]
    if not taken:
        return '?'
    if 'is duplicate' in (said.get('off') or ''):
        before = prober.probe(modules, context, f'{name} {taken[0]};\n{name} off;')
        after = prober.probe(modules, context, f'{name} off;\n{name} {taken[0]};')
        if 'is duplicate' in (before or '') and 'is duplicate' in (after or ''):
            return 'off-once'
    return 'many'


def available_contexts(prober):
    """The contexts this nginx can open: stream, mail and rtmp need their modules."""
    usable = []
    for context in CONTEXTS:
        result = prober.run(prober.loads(BLOCK_MODULES) + CONTEXTS[context].replace('@', ''))
        if result is None or not result[0].startswith('unknown directive'):
            usable.append(context)
    return usable


def check_modules(prober, paths):
    """Every module must load: one that cannot (a missing library) would make every name look
    known, since nginx then fails before it reads any directive."""
    for path in paths:
        module = os.path.basename(path)
        if not module.endswith('.so'): continue
        result = prober.run(prober.loads(FIRST + [module]) + 'events{}\n')
        if result is not None:
            raise SystemExit(f'{module} does not load: {result[0]}')


def table(prober, names):
    """Rows: name, module, contexts, kind, argument counts, value, repeats."""
    def known(item):
        name, files = item
        # The modules others build on are tried alone first, so `stream` is the stream
        # module's even though Lua's file names it too.
        shared = [f for f in FIRST if f in files]
        for module in ['builtin'] + shared + sorted(f for f in files if f.endswith('.so') and f not in FIRST):
            wanted = [] if module == 'builtin' else [module] if module in FIRST else FIRST + [module]
            message = prober.probe(wanted, 'events', f'{name};')
            if message is None or not message.startswith('unknown directive'):
                return name, module
        return None

    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        found = [k for k in pool.map(known, sorted(names.items())) if k]

    contexts = available_contexts(prober)

    def describe(item):
        name, module = item
        modules = BLOCK_MODULES + ([] if module == 'builtin' else [module])
        groups = {}
        for context in contexts:
            s = shape(prober, modules, name, context)
            if s: groups.setdefault(s, []).append(context)
        rows = []
        for (kind, counts, value), where in groups.items():
            again = repeats(prober, modules, name, where[0], kind, counts)
            rows.append((name, module, ','.join(where), kind, counts, value, again))
        return rows

    print(f'{len(found)} directives known; probing their contexts and arguments', file=sys.stderr)
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        return [row for rows in pool.map(describe, found) for row in rows]


# Where a variable is read: `set` takes any variable nginx knows, and says which it does not.
VARIABLE_CONTEXTS = {
    'http': 'events{}\nhttp{\nserver{\nlocation /{\nset $detour_probe $@;\n}\n}\n}\n',
    'stream': 'events{}\nstream{\nserver{\nlisten 127.0.0.1:1;\nreturn x;\nset $detour_probe $@;\n}\n}\n',
}


def variable_contexts(prober):
    """Where variables can be probed here: stream needs its module."""
    known = {'http': 'uri', 'stream': 'remote_addr'}
    return [c for c in VARIABLE_CONTEXTS
            if prober.run(prober.loads(['ngx_stream_module.so'] if c == 'stream' else []) + VARIABLE_CONTEXTS[c].replace('@', known[c])) is None]


def variables(prober, names):
    """Rows for the variables nginx knows in http and stream: `$name`, or `$prefix_*` for the
    families any suffix completes (`$http_…`, `$arg_…`)."""
    def knows(modules, context, variable):
        return prober.run(prober.loads(modules) + VARIABLE_CONTEXTS[context].replace('@', variable)) is None

    usable = variable_contexts(prober)

    def probe(item):
        name, files = item
        rows = []
        for context in usable:
            base = ['ngx_stream_module.so'] if context == 'stream' else []
            for module in ['builtin'] + sorted(f for f in files if f.endswith('.so') and f not in base):
                wanted = base + ([] if module == 'builtin' else FIRST + [module])
                if name.endswith('_') and knows(wanted, context, name + 'x'):
                    rows.append((f'${name}*', module, context))
                    break
                if knows(wanted, context, name):
                    rows.append((f'${name}', module, context))
                    break
        return rows

    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        found = [row for rows in pool.map(probe, sorted(names.items())) for row in rows]
    # `$http_version` is a request header to nginx, covered by `$http_*`: list the family.
    families = [(name[1:-1], context) for name, _, context in found if name.endswith('*')]
    found = [(name, module, context) for name, module, context in found
             if name.endswith('*') or not any(name[1:].startswith(p) and c == context for p, c in families)]
    merged = {}
    for name, module, context in found:
        merged.setdefault((name, module), []).append(context)
    return [(name, module, ','.join(contexts), 'variable', '-', '-', '-') for (name, module), contexts in merged.items()]


# nginx's words for a value its build refuses wherever it is written ("aio on" without file AIO).
PLATFORM_VALUE = re.compile(rb'"([a-z][a-z0-9_]*) ([a-z0-9_=]+)" is unsupported on this platform')


def platform_values(prober, paths, rows):
    """Rows for the values this build refuses: each phrase nginx's binaries hold for one, kept
    where a probe of the directive with that value, where the table allows it, is refused."""
    found = []
    for path in paths:
        for match in PLATFORM_VALUE.finditer(open(path, 'rb').read()):
            name, value = match.group(1).decode(), match.group(2).decode()
            row = next((r for r in rows if r[0] == name and r[3] == 'simple'), None)
            if row is None: continue
            modules = BLOCK_MODULES + ([] if row[1] == 'builtin' else [row[1]])
            message = prober.probe(modules, row[2].split(',')[0], f'{name} {value};')
            if message: found.append((name, row[1], row[2], 'refused-value', value, message, '-'))
    return sorted(set(found))


HEADER = '''\
# nginx directives: name, module (builtin or the dynamic module's file), contexts, block or simple,
# argument counts nginx accepts (n, a-b, n+), flag (on/off only) or constant (a value read at start,
# never a variable), whether a second one is refused
# as duplicate (once), taken (many), refused where either is off (off-once), or unknown (?).
# Then variables: $name (or $prefix_* for a family), module, http and/or stream; and the values
# this build refuses: name, module, contexts, refused-value, the value, nginx's words. Generated by
# scripts/nginx-directives/probe.py from the real nginx; do not edit by hand.
'''

def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--nginx', default='/usr/sbin/nginx')
    parser.add_argument('--modules', default='')
    parser.add_argument('--out', help='write the table here (default: standard output)')
    parser.add_argument('--verify', help='check that every directive the installed nginx knows is in TABLE as probed')
    args = parser.parse_args()
    version = subprocess.run([args.nginx, '-v'], capture_output=True, text=True).stderr.strip()
    prober = Prober(args.nginx, args.modules)
    paths = [args.nginx] + sorted(glob.glob(os.path.join(args.modules, '*.so'))) if args.modules else [args.nginx]
    names = candidates(paths)
    check_modules(prober, paths)

    if args.verify:
        return verify(prober, names, args.verify, paths)
    print(f'{len(names)} candidate names', file=sys.stderr)
    rows = table(prober, names)
    print(f'{len(rows)} directive rows; probing variables', file=sys.stderr)
    rows += variables(prober, names)
    rows += platform_values(prober, paths, rows)
    text = HEADER + f'# {version}\n' + ''.join('\t'.join(r) + '\n' for r in sorted(rows))
    if args.out:
        open(args.out, 'w').write(text)
    else:
        sys.stdout.write(text)
    print(f'{len(rows)} rows, {len({r[0] for r in rows})} directives', file=sys.stderr)


def verify(prober, names, path, paths):
    """Every directive this nginx knows is in the table, in each context it opens, with the
    same shape; the table claims no built-in directive this nginx lacks; and it lists the
    values this build refuses, in nginx's words."""
    def by_context(rows):
        return {(r[0], c): tuple(r[3:6]) for r in rows if r[3] != 'refused-value' for c in r[2].split(',')}
    listed = [line.rstrip('\n').split('\t') for line in open(path) if '\t' in line and not line.startswith('#')]
    contexts = set(available_contexts(prober)) | set(variable_contexts(prober))
    directives = table(prober, names)
    refused = {tuple(r) for r in platform_values(prober, paths, directives)}
    listed_refused = {tuple(r) for r in listed if r[3] == 'refused-value'}
    probed = by_context(directives + variables(prober, names))
    table_builtin = {k: v for k, v in by_context(r for r in listed if r[1] == 'builtin').items() if k[1] in contexts}
    every = by_context(listed)
    problems = [f'{n} in {c}: nginx says {v}, the table says {every.get((n, c), "nothing")}'
                for (n, c), v in sorted(probed.items()) if every.get((n, c)) != v]
    problems += [f'{n} in {c}: the table says {v}, nginx does not know it there'
                 for (n, c), v in sorted(table_builtin.items()) if (n, c) not in probed]
    problems += [f'{r[0]} {r[4]}: nginx refuses it ({r[5]}), the table does not say so' for r in sorted(refused - listed_refused)]
    problems += [f'{r[0]} {r[4]}: the table says nginx refuses it ({r[5]}), it does not' for r in sorted(listed_refused - refused)]
    for problem in problems: print(f'{path}: {problem}')
    print(f'{len(probed)} directive contexts probed, {len(problems)} differ from the table', file=sys.stderr)
    return 1 if problems else 0

if __name__ == '__main__':
    sys.exit(main() or 0)
