#!/usr/bin/env python3
"""mutate.py: bench-only mutation scorer: mutants inside one C function, each built with an emitted test file and run."""
# Usage:
#   python3 bench/mutate.py --list SRC FUNC                       list the candidate mutants, build nothing
#   python3 bench/mutate.py SRC FUNC --build 'cc ... test_x.c ... -o exe' [--cap 40] [--timeout 2] [--log FILE]
#                          [--callees F1,F2,...]
# --callees: the mutants are taken in FUNC and in these functions of SRC too (bench/unit.sh passes a wrapper's
# callees its tests reached, report.json's gcov.callees: json_parse's mutants are mostly json_parse_ex's).
# --build is the command of the emitted test (report.json's files[].build, before ' && '); it is run from the
# current directory with the source replaced by the mutant (also when the test #includes the source), -Werror
# dropped and warnings off. Prints 'KILLED COMPILED CANDIDATES' on the last line of stdout.
# Mutants: relational operator replacement (< <=, > >=, == !=), arithmetic (+ - * / %, also in += -= *= /=),
# && <-> ||, integer constants c -> c+1 and c -> 0 (0 -> 1). Skipped: comments, string and char literals,
# preprocessor lines, code the preprocessor drops (a false #if, by cc -E with the build's -D/-U/-I),
# integer constants inside [] on declaration lines. A mutant that does not compile is
# discarded (not counted); killed = the suite fails, crashes or runs over the timeout; equivalent mutants
# count as survivors. The sample is deterministic: candidates shuffled with a seed from the function's name,
# then built in that order until --cap mutants compiled.
import argparse
import os
import random
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import zlib

TYPE_WORDS = {"char", "short", "int", "long", "unsigned", "signed", "float", "double", "void", "const",
              "static", "struct", "union", "enum", "volatile", "register", "size_t", "ssize_t", "_Bool", "bool"}
OPS = ["<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=", "-=",
       "*=", "/=", "%=", "&=", "|=", "^="]
REL = {"<": ["<="], "<=": ["<"], ">": [">="], ">=": [">"], "==": ["!="], "!=": ["=="]}
ARI = {"+": ["-"], "-": ["+"], "*": ["/"], "/": ["*"], "%": ["*"],
       "+=": ["-="], "-=": ["+="], "*=": ["/="], "/=": ["*="]}
LOG = {"&&": ["||"], "||": ["&&"]}


def blank(text):
    """The text with comments, string and char literals and preprocessor lines replaced by spaces (same offsets)."""
    out = list(text)
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c == "#":
            j = i
            while j < n and text[j] != "\n":
                if text[j] == "\\" and j + 1 < n:
                    j += 1
                j += 1
            for k in range(i, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j
            continue
        if c == "\n":
            line_start = True
            i += 1
            continue
        if c not in " \t\r":
            line_start = False
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            for k in range(i, j):
                out[k] = " "
            i = j
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            for k in range(i, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j
            continue
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            for k in range(i + 1, j - 1):
                out[k] = " "
            i = j
            continue
        i += 1
    return "".join(out)


def function_body(text, clean, func):
    """Offsets (open brace, close brace) of FUNC's definition, by brace matching."""
    for m in re.finditer(r"\b%s\s*\(" % re.escape(func), clean):
        i, depth = m.end() - 1, 0
        while i < len(clean):
            if clean[i] == "(":
                depth += 1
            elif clean[i] == ")":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        j = i + 1
        while j < len(clean) and clean[j].isspace():
            j += 1
        if j >= len(clean) or clean[j] != "{":
            continue
        depth, k = 0, j
        while k < len(clean):
            if clean[k] == "{":
                depth += 1
            elif clean[k] == "}":
                depth -= 1
                if depth == 0:
                    return j, k
            k += 1
    return None


def tokens(clean, start, end):
    """(offset, text, kind) of the tokens of clean[start:end]; kind in id, num, op, other."""
    i = start
    while i < end:
        c = clean[i]
        if c.isspace():
            i += 1
            continue
        if c.isalpha() or c == "_":
            j = i
            while j < end and (clean[j].isalnum() or clean[j] == "_"):
                j += 1
            yield i, clean[i:j], "id"
            i = j
            continue
        if c.isdigit() or (c == "." and i + 1 < end and clean[i + 1].isdigit()):
            j = i
            while j < end and (clean[j].isalnum() or clean[j] in "._" or
                               (clean[j] in "+-" and clean[j - 1] in "eEpP" and not clean[i:j].lower().startswith("0x"))):
                j += 1
            yield i, clean[i:j], "num"
            i = j
            continue
        for op in OPS:
            if clean.startswith(op, i):
                yield i, op, "op"
                i += len(op)
                break
        else:
            yield i, c, "op" if c in "<>=!+-*/%&|^~?:" else "other"
            i += 1


def int_value(lit):
    m = re.fullmatch(r"(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)([uUlL]*)", lit)
    if not m:
        return None
    return int(m.group(1), 0) if not re.fullmatch(r"0[0-7]+", m.group(1)) else int(m.group(1), 8), m.group(2)


def line_of(text, off):
    return text.count("\n", 0, off) + 1


def candidates(text, func):
    clean = blank(text)
    body = function_body(text, clean, func)
    if not body:
        return None
    toks = list(tokens(clean, body[0] + 1, body[1]))
    muts = []
    bracket_decl = []  # for each open '[', whether it is on a declaration line
    for idx, (off, tok, kind) in enumerate(toks):
        prev = toks[idx - 1] if idx else (0, "{", "other")
        if tok == "[":
            ls = clean.rfind("\n", 0, off) + 1
            first = re.match(r"\s*([A-Za-z_]\w*)", clean[ls:off])
            word = first.group(1) if first else ""
            bracket_decl.append(word in TYPE_WORDS or word.endswith("_t"))
            continue
        if tok == "]":
            if bracket_decl:
                bracket_decl.pop()
            continue
        if kind == "op" and tok in REL:
            for r in REL[tok]:
                muts.append((off, tok, r, "relational"))
        elif kind == "op" and tok in LOG:
            for r in LOG[tok]:
                muts.append((off, tok, r, "logical"))
        elif kind == "op" and tok in ARI:
            binary = prev[2] in ("num",) or prev[1] in (")", "]") or (
                prev[2] == "id" and prev[1] not in ("return", "sizeof", "case") and prev[1] not in TYPE_WORDS)
            if len(tok) == 1 and not binary:
                continue
            if tok == "*" and prev[2] == "id" and idx + 2 < len(toks) and toks[idx + 1][2] == "id" and \
                    toks[idx + 2][1] in ("=", ";", ",", ")", "["):
                continue  # 'T *p = ...' looks like a declaration
            for r in ARI[tok]:
                muts.append((off, tok, r, "arithmetic"))
        elif kind == "num":
            if bracket_decl and bracket_decl[-1]:
                continue
            v = int_value(tok)
            if v is None:
                continue
            val, suffix = v
            muts.append((off, tok, "%d%s" % (val + 1, suffix), "constant"))
            if val != 0:
                muts.append((off, tok, "0%s" % suffix if suffix else "0", "constant"))
    return [(off, old, new, kind, line_of(text, off)) for off, old, new, kind in muts]


def live_lines(src, flags):
    """Source lines of SRC that survive the preprocessor with FLAGS (code in a false #if is not a mutant
    of the compiled function); None when cc -E fails."""
    r = subprocess.run(["cc", "-E"] + flags + [src], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                       encoding="latin-1")
    if r.returncode != 0:
        return None
    live, cur, line, want = set(), None, 0, os.path.realpath(src)
    for ln in r.stdout.splitlines():
        m = re.match(r'# (\d+) "(.*)"', ln)
        if m:
            line, cur = int(m.group(1)), m.group(2)
            cur = os.path.realpath(cur) if os.path.exists(cur) else cur
            continue
        if cur == want and ln.strip():
            live.add(line)
        line += 1
    return live


def run_suite(exe, timeout):
    """True when the suite fails, crashes or times out."""
    if not os.path.exists(exe):
        return None
    try:
        p = subprocess.Popen([exe], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                             env=dict(os.environ, CMOCKA_MESSAGE_OUTPUT="stdout"))
    except OSError:
        return True
    try:
        rc = p.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except OSError:
            pass
        p.wait()
        return True
    return rc != 0


def main():
    ap = argparse.ArgumentParser(description="mutation score of an emitted test file on one C function")
    ap.add_argument("src")
    ap.add_argument("func")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--build", help="the emitted test's build command (before ' && ')")
    ap.add_argument("--cap", type=int, default=40)
    ap.add_argument("--timeout", type=float, default=2.0)
    ap.add_argument("--log")
    ap.add_argument("--callees", default="")
    a = ap.parse_args()
    text = open(a.src, encoding="latin-1").read()
    muts = candidates(text, a.func)
    for callee in [c for c in a.callees.split(",") if c and c != a.func]:
        more = candidates(text, callee)
        if muts is not None and more:
            muts += more
    if muts is None:
        print("mutate.py: no definition of %s in %s" % (a.func, a.src), file=sys.stderr)
        print("0 0 0")
        return 2
    words = shlex.split(a.build) if a.build else []
    pp = [w for w in words if w.startswith(("-D", "-U", "-I"))] + ["-I" + os.path.dirname(os.path.realpath(a.src))]
    live = live_lines(a.src, pp)
    if live is not None:
        muts = [m for m in muts if m[4] in live]
    rng = random.Random(zlib.crc32(a.func.encode()))
    order = list(range(len(muts)))
    rng.shuffle(order)
    if a.list:
        for i in order:
            off, old, new, kind, line = muts[i]
            print("%s:%d %s %s -> %s" % (os.path.basename(a.src), line, kind, old, new))
        print("0 0 %d" % len(muts))
        return 0
    src_abs = os.path.realpath(a.src)
    base = os.path.basename(a.src)
    tmp = tempfile.mkdtemp(prefix="mut_")
    log = open(a.log, "w") if a.log else open(os.devnull, "w")
    try:
        # the test file is copied next to the mutant, so an '#include "base"' of the source finds the mutant
        argv, exe = [], os.path.join(tmp, "t")
        skip_next = False
        for w in words:
            if skip_next:
                skip_next = False
                continue
            if w == "-o":
                argv += ["-o", exe]
                skip_next = True
            elif w == "-Werror":
                continue
            elif w.endswith((".c", ".h")) and not w.startswith("-") and os.path.realpath(w) == src_abs:
                argv.append(os.path.join(tmp, base))
            elif w.endswith(".c") and not w.startswith("-") and os.path.basename(w).startswith("test_"):
                test_copy = os.path.join(tmp, os.path.basename(w))
                shutil.copy(w, test_copy)
                argv.append(test_copy)
            else:
                argv.append(w)
        argv.insert(1, "-w")
        argv[1:1] = ["-O0"]
        # the source's own directory stays first for its headers
        argv.insert(1, "-I" + os.path.dirname(src_abs))
        mut_path = os.path.join(tmp, base)

        def build(content):
            with open(mut_path, "w", encoding="latin-1") as f:
                f.write(content)
            if os.path.exists(exe):
                os.unlink(exe)
            r = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            return r.returncode == 0

        if not build(text) or run_suite(exe, a.timeout * 5):
            print("mutate.py: the unmutated suite does not build or pass: %s" % " ".join(argv), file=sys.stderr)
            print("0 0 %d" % len(muts))
            return 3
        killed = compiled = 0
        for i in order:
            if compiled >= a.cap:
                break
            off, old, new, kind, line = muts[i]
            if not build(text[:off] + new + text[off + len(old):]):
                log.write("%s:%d %s %s -> %s: does not compile (discarded)\n" % (base, line, kind, old, new))
                continue
            compiled += 1
            k = run_suite(exe, a.timeout)
            killed += 1 if k else 0
            ltext = text.splitlines()[line - 1].strip()
            log.write("%s:%d %s %s -> %s: %s    | %s\n" % (base, line, kind, old, new,
                                                          "killed" if k else "SURVIVED", ltext))
        print("%d %d %d" % (killed, compiled, len(muts)))
        return 0
    finally:
        log.close()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
