"""The C-initializer reader shared by the generators of SMPI selector tables
(gen_impi_tables.py, gen_mvapich2_tables.py)."""
import re

WORDS = {"true": True, "false": False, "nullptr": None, "NULL": None}
TOKEN = re.compile(r"\s*(\{|\}|,|-?\d+|true|false|nullptr|NULL|&[A-Za-z_][A-Za-z0-9_]*)")


def parse_braces(text, i=0):
    """A C initializer starting at text[i] == '{' as nested lists of ints,
    booleans (true, false), function names (from &NAME) and None (nullptr),
    and the index after its closing brace."""
    assert text[i] == "{", text[i:i + 40]
    out, i = [], i + 1
    while True:
        m = TOKEN.match(text, i)
        if not m:
            raise SystemExit("cannot parse near: " + text[i:i + 60])
        tok = m.group(1)
        if tok == "{":
            sub, i = parse_braces(text, m.start(1))
            out.append(sub)
            continue
        i = m.end()
        if tok == "}":
            return out, i
        if tok == ",":
            continue
        if tok in WORDS:
            out.append(WORDS[tok])
        else:
            out.append(tok[1:] if tok.startswith("&") else int(tok))


def strip_comments(src):
    """src without C comments."""
    src = re.sub(r"/\*.*?\*/", "", src, flags=re.S)
    return re.sub(r"//[^\n]*", "", src)
