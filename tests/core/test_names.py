"""Player names: any name a person can type is kept (joined emoji, accents, "/"), as they see it;
control and invisible formatting characters and over-long names are refused, saying why."""

from __future__ import annotations

import unicodedata

import pytest

from shutthebox.core.errors import ParseError
from shutthebox.core.names import CODE_POINTS, NAME_LENGTH, clean_name, visible_length

ZWJ = "\u200d"
FAMILY = f"👨{ZWJ}👩{ZWJ}👧{ZWJ}👦"  # four emoji joined: seven code points
SPAIN = "\U0001f1ea\U0001f1f8"  # two regional indicators
THUMB = "👍\U0001f3fd"  # a skin tone
SCOTLAND = "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"  # black flag, tags, cancel tag
CODER = f"👩\U0001f3fd{ZWJ}💻"  # skin tone and joiner
KEYCAP = "1\ufe0f\u20e3"  # digit, emoji style, enclosing keycap
HEART = "❤\ufe0f"  # emoji variation selector
RAINBOW = f"🏳\ufe0f{ZWJ}🌈"  # a flag joined with a rainbow

JOINED = [FAMILY, SPAIN, THUMB, SCOTLAND, CODER, KEYCAP, HEART, RAINBOW]
JOINED_IDS = ["family", "flag", "skin tone", "subdivision flag", "coder", "keycap", "heart", "rainbow flag"]


def test_the_limits_are_those_of_the_rule() -> None:
    assert (NAME_LENGTH, CODE_POINTS) == (24, 64)
    assert len(FAMILY) == len(SCOTLAND) == 7


# -- what a person sees -------------------------------------------------------------------------------
@pytest.mark.parametrize("emoji", JOINED, ids=JOINED_IDS)
def test_a_joined_emoji_is_one_character(emoji: str) -> None:
    assert visible_length(emoji) == 1
    assert visible_length(f"{emoji} Fam") == 5
    assert clean_name(f"{emoji} Fam") == f"{emoji} Fam"
    assert clean_name(emoji) == emoji


@pytest.mark.parametrize("emoji", [SPAIN, THUMB, HEART], ids=["flag", "skin tone", "heart"])
def test_twenty_four_joined_emoji_are_a_name_and_twenty_five_are_not(emoji: str) -> None:
    assert len(emoji * NAME_LENGTH) <= CODE_POINTS  # two code points each: only the visible rule applies
    assert clean_name(emoji * NAME_LENGTH) == emoji * NAME_LENGTH
    with pytest.raises(ParseError, match="longer than 24 characters"):
        clean_name(emoji * (NAME_LENGTH + 1))


def test_two_flags_side_by_side_are_two_characters() -> None:
    assert visible_length(SPAIN + "\U0001f1eb\U0001f1f7") == 2
    assert visible_length(SPAIN * 3) == 3


def test_accented_letters_are_one_character_composed_or_not() -> None:
    assert visible_length("Jose\u0301") == visible_length("José") == 4
    assert clean_name("e\u0301" * NAME_LENGTH) == "é" * NAME_LENGTH


# -- kept as typed ------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", [
    "AC/DC", "../..", "José/Zoë", "Ñandú", "Øyvind Åsen", "Łukasz", "李小龍", "Ана", "Ελένη", "محمد",
    "O'Brien-Smith", "a+b?c#d%20", "Ana (2)", "ß", "\uff21\uff4e\uff41",
])
def test_any_typed_name_is_kept(name: str) -> None:
    assert clean_name(name) == name


@pytest.mark.parametrize(("typed", "kept"), [
    ("Jose\u0301", "Jos\u00e9"),
    ("A\u030angstro\u0308m", "\u00c5ngstr\u00f6m"),
    ("\u1100\u1161", "\uac00"),  # Hangul jamo composed into a syllable
    ("\u212b", "\u00c5"),  # the angstrom sign is a letter A with a ring
])
def test_a_name_is_composed_nfc(typed: str, kept: str) -> None:
    assert clean_name(typed) == kept
    assert unicodedata.is_normalized("NFC", clean_name(typed))


def test_nfc_is_not_nfkc_the_name_is_shown_as_typed() -> None:
    """Compatibility forms (fullwidth, ligatures) are kept; the store's look-alike keys fold them."""
    assert clean_name("\uff21\uff4e\uff41") == "\uff21\uff4e\uff41"
    assert clean_name("\ufb01o") == "\ufb01o"


@pytest.mark.parametrize(("typed", "kept"), [
    ("  Ana   María  ", "Ana María"),
    ("Ana\u00a0\u3000María", "Ana María"),  # no-break and ideographic spaces
    ("\u2003Ana\u2009 Luis ", "Ana Luis"),
])
def test_spaces_are_collapsed_and_trimmed(typed: str, kept: str) -> None:
    assert clean_name(typed) == kept


# -- refused --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["", "   ", "\u3000"])
def test_an_empty_name_is_refused(name: str) -> None:
    with pytest.raises(ParseError, match="at least one visible character"):
        clean_name(name)


@pytest.mark.parametrize("value", [None, 7, b"Ana", ["Ana"]])
def test_a_name_is_text(value: object) -> None:
    with pytest.raises(ParseError, match="a name is text"):
        clean_name(value)  # type: ignore[arg-type]


@pytest.mark.parametrize("char", [
    "\x00", "\x07", "\x1b", "\x7f", "\x9b",  # control characters (NUL, BEL, ESC, DEL, CSI)
    "\u202e", "\u202d", "\u202a", "\u2066", "\u2067", "\u2068", "\u2069",  # bidi overrides, isolates
    "\u200e", "\u200f", "\u061c",  # bidi marks
    "\u200b", "\u2060", "\ufeff", "\u00ad", "\u180e",  # zero-width space, word joiner, BOM, soft hyphen
    "\ue000", "\U000f0000",  # private use
    "\u0378", "\U000e0000",  # unassigned
    "\ud800",  # a lone surrogate
])
@pytest.mark.parametrize("where", ["start", "middle", "end"])
def test_control_and_invisible_characters_are_refused_naming_the_code_point(char: str, where: str) -> None:
    name = {"start": char + "Ana", "middle": "An" + char + "a", "end": "Ana" + char}[where]
    with pytest.raises(ParseError, match=f"invisible or control character \\(U\\+{ord(char):04X}\\)"):
        clean_name(name)


def test_a_bidi_override_cannot_hide_a_name_behind_another() -> None:
    """"Ana" followed by an override reversing "ailuJ" would show as "AnaJulia"."""
    with pytest.raises(ParseError, match="U\\+202E"):
        clean_name("Ana\u202eailuJ")


def test_twenty_five_characters_are_too_many() -> None:
    assert clean_name("a" * NAME_LENGTH) == "a" * NAME_LENGTH
    with pytest.raises(ParseError, match="longer than 24 characters"):
        clean_name("a" * (NAME_LENGTH + 1))
    with pytest.raises(ParseError, match="longer than 24"):
        clean_name("José María Fernández Ruiz")  # 25 with its spaces
    assert clean_name("  " + "a" * NAME_LENGTH + "  ") == "a" * NAME_LENGTH  # trimmed first


def test_twenty_four_emoji_of_seven_code_points_are_refused_for_their_code_points() -> None:
    """24 visible characters, but 168 code points behind them: more than 64."""
    name = FAMILY * NAME_LENGTH
    assert visible_length(name) == NAME_LENGTH and len(name) == 7 * NAME_LENGTH > CODE_POINTS
    with pytest.raises(ParseError, match="more than 64 code points"):
        clean_name(name)
    assert visible_length(SCOTLAND * NAME_LENGTH) == NAME_LENGTH
    with pytest.raises(ParseError, match="more than 64 code points"):
        clean_name(SCOTLAND * NAME_LENGTH)


def test_code_points_are_refused_only_over_sixty_four() -> None:
    nine = FAMILY * 9  # 63 code points, 9 characters
    assert clean_name(nine) == nine
    assert clean_name(nine + "a") == nine + "a"  # 64: the most
    with pytest.raises(ParseError, match="more than 64 code points"):
        clean_name(nine + "ab")  # 65, though only 11 characters show
    with pytest.raises(ParseError, match="more than 64 code points"):
        clean_name(FAMILY * 10)  # 70
    with pytest.raises(ParseError, match="more than 64 code points"):
        clean_name(" ".join([FAMILY] * 9))  # 71 with the spaces between


# -- refusals the first version missed ----------------------------------------------------------------
@pytest.mark.parametrize("name", [ZWJ, "\ufe0f", "\U000e0061\U000e0062", "\u200c\u200d"])
def test_a_name_of_invisible_characters_alone_is_refused(name: str) -> None:
    with pytest.raises(ParseError):
        clean_name(name)


@pytest.mark.parametrize("char", ["\x1c", "\x1f", "\x85", "\u2028", "\u2029"])
def test_control_characters_python_counts_as_spaces_are_refused(char: str) -> None:
    """Zl and Zp are in the refused categories, but str.split() removes them before the check."""
    with pytest.raises(ParseError, match=f"U\\+{ord(char):04X}"):
        clean_name(f"Ana{char}Luis")


def test_tabs_and_line_ends_pasted_with_a_name_become_one_space() -> None:
    assert clean_name("\tAna\r\nLuis\n") == "Ana Luis"


@pytest.mark.parametrize("blank", ["\u3164", "\u115f", "\u1160", "\uffa0", "\u2800", "\u17b4", "\u17b5"])
def test_letters_that_draw_nothing_are_refused(blank: str) -> None:
    """Before: "Ana" plus a Hangul filler made a second Ana, and a filler alone a blank name."""
    for name in (f"Ana{blank}", blank):
        with pytest.raises(ParseError, match=f"U\\+{ord(blank):04X}"):
            clean_name(name)


def test_a_character_piled_with_marks_is_refused() -> None:
    assert clean_name("Zoe\u0301\u0302") == "Zoé\u0302"  # two marks: a letter some languages write
    with pytest.raises(ParseError, match="more than 4 marks"):
        clean_name("Z" + "\u0300\u0301\u0302\u0303\u0304" + "oe")


@pytest.mark.parametrize("name", [".", ".."])
def test_a_name_that_reads_as_a_folder_in_a_web_address_is_refused(name: str) -> None:
    with pytest.raises(ParseError, match="web address"):
        clean_name(name)
    assert clean_name("...") == "..."  # not a folder: it stays in the address as typed
