"""A reading of the web client's JavaScript just deep enough to measure it: its tokens (strings,
template literals, regular expressions and comments skipped as wholes), its imports, and the
lines each function spans, from its parameters to the end of its body, nested functions included."""

from __future__ import annotations

import re
from dataclasses import dataclass

WORD = re.compile(r"[A-Za-z_$][\w$]*|\d[\w.]*")
PUNCTUATION = ("=>", "...", "?.", "??")
# after these words a `/` starts a regular expression, not a division
BEFORE_EXPRESSION = {"return", "typeof", "in", "of", "new", "delete", "void", "throw", "case", "do", "else", "yield", "await"}
CONTROL = {"if", "for", "while", "switch", "catch", "with"}  # `word (...) {` that opens no function
IMPORT = re.compile(r"""^import\s[^;]*?from\s+"([^"]+)";""", re.MULTILINE | re.DOTALL)


@dataclass(frozen=True, slots=True)
class Token:
    text: str
    line: int
    kind: str  # "word", "string" (quotes, templates, regular expressions) or "punctuation"


@dataclass(frozen=True, slots=True)
class Function:
    name: str
    first: int  # the line its parameters start on
    last: int  # the line its body ends on

    @property
    def lines(self) -> int:
        return self.last - self.first + 1


def imports(source: str) -> list[str]:
    """The module paths `source` imports, as written."""
    return IMPORT.findall(source)


def tokens(source: str) -> list[Token]:
    """The tokens of `source`, comments dropped; a template literal is one string token, its `${}` read as code."""
    found: list[Token] = []
    braces: list[bool] = []  # for each open `{`: whether it is a template's `${`
    at, line = 0, 1
    while at < len(source):
        char = source[at]
        if char == "\n":
            line += 1
        if char.isspace():
            at += 1
        elif source.startswith("//", at):
            at = source.find("\n", at) if "\n" in source[at:] else len(source)
        elif source.startswith("/*", at):
            end = source.index("*/", at) + 2
            line += source.count("\n", at, end)
            at = end
        elif char in "'\"" or (char == "}" and braces and braces[-1]) or char == "`":
            if char == "}":
                braces.pop()
            end, opens = _string_end(source, at)
            if opens:
                braces.append(True)
            found.append(Token(source[at:end], line, "string"))
            line += source.count("\n", at, end)
            at = end
        elif char == "/" and _starts_expression(found):
            end = _regex_end(source, at)
            found.append(Token(source[at:end], line, "string"))
            at = end
        elif match := WORD.match(source, at):
            found.append(Token(match.group(), line, "word"))
            at = match.end()
        else:
            text = next((p for p in PUNCTUATION if source.startswith(p, at)), char)
            if text == "{":
                braces.append(False)
            elif text == "}" and braces:
                braces.pop()
            found.append(Token(text, line, "punctuation"))
            at += len(text)
    return found


def _string_end(source: str, at: int) -> tuple[int, bool]:
    """Where the quoted string or template piece starting at `at` ends, and whether it ends by opening `${`."""
    quote = "`" if source[at] in "`}" else source[at]
    at += 1
    while source[at] != quote:
        if source[at] == "\\":
            at += 1
        elif quote == "`" and source.startswith("${", at):
            return at + 2, True
        at += 1
    return at + 1, False


def _starts_expression(before: list[Token]) -> bool:
    """Whether a `/` after `before` begins a regular expression rather than dividing."""
    if not before:
        return True
    last = before[-1]
    if last.kind == "word":
        return last.text in BEFORE_EXPRESSION
    return last.kind == "punctuation" and last.text not in (")", "]", "}")


def _regex_end(source: str, at: int) -> int:
    """Where the regular expression starting at `at` ends, its flags included."""
    at += 1
    in_class = False
    while in_class or source[at] != "/":
        if source[at] == "\\":
            at += 1
        elif source[at] in "[]":
            in_class = source[at] == "["
        at += 1
    flags = WORD.match(source, at + 1)
    return flags.end() if flags else at + 1


def functions(source: str) -> list[Function]:
    """Every function of `source`: declarations, expressions, methods and arrows, in order of their start."""
    found = tokens(source)
    pairs = _pairs(found)
    spans: list[Function] = []
    for index, token in enumerate(found):
        if token.text == "=>":
            start = pairs.get(index - 1, index - 1)  # `(a, b) =>` or `a =>`
            end = pairs[index + 1] if found[index + 1].text == "{" else _expression_end(found, pairs, index + 1)
            spans.append(Function(_name(found, start), found[start].line, found[end].line))
        elif token.text == "{" and found[index - 1].text == ")" and _is_function_head(found, pairs[index - 1]):
            start = pairs[index - 1]
            spans.append(Function(_name(found, start), found[start].line, found[pairs[index]].line))
    return sorted(spans, key=lambda span: span.first)


def _pairs(found: list[Token]) -> dict[int, int]:
    """Each bracket's index mapped to its partner's, both ways."""
    pairs: dict[int, int] = {}
    open_at: list[int] = []
    for index, token in enumerate(found):
        if token.kind != "punctuation":
            continue
        if token.text in "([{":
            open_at.append(index)
        elif token.text in ")]}":
            start = open_at.pop()
            pairs[start], pairs[index] = index, start
    return pairs


def _is_function_head(found: list[Token], paren: int) -> bool:
    """Whether the `(` at `paren`, followed by `) {`, holds a function's parameters."""
    before = found[paren - 1] if paren else None
    if before is None or before.kind != "word":
        return False
    return before.text not in CONTROL


def _expression_end(found: list[Token], pairs: dict[int, int], at: int) -> int:
    """The last token of the expression body of an arrow starting at `at`."""
    while at < len(found):
        text = found[at].text if found[at].kind == "punctuation" else ""
        if text in ("(", "[", "{"):
            at = pairs[at]
        elif text in (",", ";", ")", "]", "}"):
            return at - 1
        at += 1
    return len(found) - 1


def _name(found: list[Token], start: int) -> str:
    """A function's name: `function name(`, `name(` of a method, or `name = (` / `name: (`."""
    at = start - 1
    if at >= 0 and found[at].text == "async":
        at -= 1
    if at >= 1 and found[at].text in ("=", ":") and found[at - 1].kind == "word":
        return found[at - 1].text
    if at >= 0 and found[at].kind == "word" and found[at].text != "function":
        return found[at].text
    return "(anonymous)"
