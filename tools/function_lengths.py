#!/usr/bin/env python3
"""Lengths of the C++ functions of the rooms, by counting braces.

  tools/function_lengths.py [--root ROOT] [--over N] [--allow FILE] [--stats]

Lists "file:line: name: N lines" for every function (free, member, in a class
body or out of it) longer than N lines (default 80), longest first; a
function's length runs from the first line of its declaration to its closing
brace. Lambdas and local classes count as part of the function that holds
them. Looks at the .cc and .h files of the rooms (every top-level folder with
C++ code but tests/ and build trees, those with a CMakeCache.txt at their top).

With --allow FILE, the functions that FILE names ("path:name" a line, "#"
comments) are left out of the list, and the script exits 1 if any other
function is over N lines, and also if an allowed one is no longer over N
(so that the list only shrinks). Run by ctest as function_length_check.

--stats also prints the count, median and 90th percentile of all lengths.

Kept simple, not a parser: comments, strings, character literals, raw strings
and preprocessor lines are blanked out, then a "{" at namespace or class
scope opens a function body when the text before it (since the last ";",
"{" or "}" at that scope) has a parenthesis and is no control statement,
initializer or type definition.
"""

import argparse
import os
import re
import sys

_SKIP_DIRS = {"tests", "build", ".git", "third_party", "web", "proto"}
_QUALIFIERS = {"const", "override", "final", "noexcept", "mutable", "try"}


def _blank(text):
    """Text with comments, literals and preprocessor lines as spaces.

    Newlines are kept, so that offsets map to the same line numbers.
    """
    out = []
    i, n = 0, len(text)
    at_line_start = True
    while i < n:
        c = text[i]
        if c == "\n":
            out.append(c)
            i += 1
            at_line_start = True
            continue
        if at_line_start and c in " \t":
            out.append(c)
            i += 1
            continue
        if at_line_start and c == "#":
            # A preprocessor line, with its backslash continuations.
            while i < n and not (text[i] == "\n" and text[i - 1] != "\\"):
                out.append("\n" if text[i] == "\n" else " ")
                i += 1
            continue
        at_line_start = False
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                out.append(" ")
                i += 1
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.extend("\n" if ch == "\n" else " " for ch in text[i:end])
            i = end
            continue
        raw = re.match(r'(?:u8|u|U|L)?R"([^()\\ ]{0,16})\(', text[i:i + 24])
        if raw and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            end = text.find(")" + raw.group(1) + '"', i + raw.end())
            end = n if end < 0 else end + len(raw.group(1)) + 2
            out.extend("\n" if ch == "\n" else " " for ch in text[i:end])
            out.append('""')
            i = end
            continue
        if c == "'" and i > 0 and text[i - 1].isalnum() and i + 1 < n and \
                text[i + 1].isalnum():
            out.append(" ")  # A digit separator: 1'000'000.
            i += 1
            continue
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (min(j, n) - i - 1) + c)
            i = j + 1
            continue
        out.append(c)
        i += 1
    return "".join(out)


def _matching_close(code, open_at):
    """Offset of the "}" that closes the "{" at open_at."""
    depth = 0
    for j in range(open_at, len(code)):
        if code[j] == "{":
            depth += 1
        elif code[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    return len(code) - 1


def _top_level(header):
    """header without what lies inside (), <> of templates and {}."""
    out, depth = [], 0
    for ch in header:
        if ch in "({":
            depth += 1
            out.append(ch)
        elif ch in ")}":
            depth = max(0, depth - 1)
            out.append(ch)
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def _function_name(header):
    """The name before the header's first top-level "(", or None."""
    header = re.sub(r"\b(public|private|protected)\s*:(?!:)", " ", header)
    header = re.sub(r"\boperator\s*(\(\)|[^\s(]+)\s*\(", r"operator\1 (", header)
    match = re.search(r"((?:[\w~]+(?:<[^()]*>)?\s*::\s*)*(?:operator\S+|~?\w+))\s*\($",
                      header[:_first_paren(header) + 1])
    return re.sub(r"\s+", "", match.group(1)) if match else None


def _first_paren(header):
    angle = 0
    for k, ch in enumerate(header):
        if ch == "<" and not header.startswith("operator", max(0, k - 8)):
            angle += 1
        elif ch == ">" and angle > 0 and header[k - 1] != "-":
            angle -= 1
        elif ch == "(" and angle == 0:
            return k
    return header.find("(")


def _is_function_header(header):
    flat = " ".join(_top_level(header).split())
    flat = re.sub(r"\b(public|private|protected)\s*:(?!:)", " ", flat).strip()
    if "(" not in flat:
        return False
    if re.match(r"(template\s*<.*>\s*)?(class|struct|union|enum|namespace)\b", flat):
        return False
    if re.match(r"(if|for|while|switch|catch|do|else|return)\b", flat):
        return False
    no_ops = re.sub(r"operator\s*\S*?\(", "operator(", flat)
    no_ops = re.sub(r"[=!<>]=|->|\[=\]|=\s*(default|delete)", "", no_ops)
    return "=" not in no_ops.split("(")[0] and _function_name(header) is not None


def functions(path):
    """(line, name, length) for each function defined in the file at path."""
    with open(path, encoding="utf-8", errors="replace") as f:
        code = _blank(f.read())
    found = []

    def line_of(offset):
        return code.count("\n", 0, offset) + 1

    def scan(start, end):
        """Looks for functions in code[start:end], a namespace or class scope."""
        header_from = start
        i = start
        while i < end:
            c = code[i]
            if c in ";}":
                header_from = i + 1
            elif c == "{":
                header = code[header_from:i]
                close = _matching_close(code, i)
                before = header.rstrip()
                word = re.search(r"(\w+)$", before)
                flat = " ".join(header.split())
                if re.match(r"(template\s*<.*>\s*)?(namespace|extern\s+\"\"|"
                            r"(class|struct|union)\b(?!.*\()|"
                            r"(class|struct|union)\s+\w+\s*(final\s*)?:)", flat) \
                        and not flat.startswith("enum"):
                    scan(i + 1, close)
                    header_from = close + 1
                    i = close + 1
                    continue
                if _is_function_header(header):
                    trailing = "->" in header[header.rfind(")"):]
                    if word and word.group(1) not in _QUALIFIERS and not trailing:
                        # A member's brace initializer in a constructor's
                        # initializer list: the header goes on.
                        i = close + 1
                        continue
                    first = header_from + (len(header) - len(header.lstrip()))
                    body_start = line_of(first)
                    found.append((body_start, _function_name(header),
                                  line_of(close) - body_start + 1))
                header_from = close + 1
                i = close + 1
                continue
            i += 1

    scan(0, len(code))
    return found


def source_files(root):
    for top in sorted(os.listdir(root)):
        top_path = os.path.join(root, top)
        if top in _SKIP_DIRS or top.startswith(".") or not os.path.isdir(top_path) \
                or os.path.exists(os.path.join(top_path, "CMakeCache.txt")):
            continue
        for folder, dirs, files in os.walk(top_path):
            dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS and not
                             os.path.exists(os.path.join(folder, d, "CMakeCache.txt")))
            for name in sorted(files):
                if name.endswith((".cc", ".h")):
                    yield os.path.relpath(os.path.join(folder, name), root)


def read_allow_list(path):
    allowed = set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                allowed.add(line)
    return allowed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=os.path.join(os.path.dirname(__file__), ".."))
    parser.add_argument("--over", type=int, default=80)
    parser.add_argument("--allow")
    parser.add_argument("--stats", action="store_true")
    args = parser.parse_args()

    all_lengths, long_ones = [], []
    for rel in source_files(args.root):
        for line, name, length in functions(os.path.join(args.root, rel)):
            all_lengths.append(length)
            if length > args.over:
                long_ones.append((length, rel, line, name))
    long_ones.sort(key=lambda f: (-f[0], f[1], f[2]))

    allowed = read_allow_list(args.allow) if args.allow else set()
    failed = False
    seen = set()
    for length, rel, line, name in long_ones:
        key = f"{rel}:{name}"
        seen.add(key)
        mark = ""
        if args.allow:
            if key in allowed:
                mark = " (allowed)"
            else:
                failed = True
        print(f"{rel}:{line}: {name}: {length} lines{mark}")
    for key in sorted(allowed - seen):
        print(f"{key}: allowed but no longer over {args.over} lines; "
              f"drop it from {args.allow}")
        failed = True

    if args.stats and all_lengths:
        ordered = sorted(all_lengths)
        print(f"{len(ordered)} functions; median {ordered[len(ordered) // 2]}, "
              f"90th percentile {ordered[(len(ordered) * 9) // 10]} lines")
    if failed:
        print(f"functions over {args.over} lines that {args.allow} does not name "
              f"(split them, or name them there with a reason)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
