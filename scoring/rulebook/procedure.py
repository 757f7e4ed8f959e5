"""The play procedure of the clubs whose seeds state it, as the rules page
shows it: how the table plays, calls and punishes, beside the scoring the sheet gives. The seed's
own words on a Japanese page, an English rendering on an English one.

- Makura Club v1.5 (``makura-1.5``): seed 001 §10-§42 (L84-250): dora and kans, call priority
  and kuikae (§13-§17), riichi and open riichi exposure (§18-§32), chombo, agari-houki and
  false calls (§33-§42).
- Makura Club v1.3 (``makura-1.3``): seed 000 §10-§42 (L76-310), the same items in that
  version's words (§13 call priority, §18 open riichi, §33a chombo, §38 false calls differ).
- The home game (``home-nashinashi``): seed 003 L84-88 (kuikae), L123-134 (when a discard and
  a call count), L221-261 (kans), L299-342 (chombo and agari-houki), L357-410 (open riichi),
  L420-435 (pao).
- Shinbashi FUJI Club (``fuji-sanma``): seed 004 L40-46 (open riichi), L62-138 (false and
  mistaken acts, special cases, too many or too few tiles, open riichi rulings, chombo and
  agari-houki); its manners (L140-163) are :mod:`scoring.rulebook.manners`'.

Each item is ``(number, japanese, english)``: ``number`` is the seed's own item number
(``"13)"``, ``"a)"``) or ``""`` where the seed numbers none; the Japanese is the seed's text as
written, its lines joined; the English is ours.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import get_language

Item = tuple[str, str, str]
Part = tuple[tuple[str, str], tuple[Item, ...]]


@dataclass(frozen=True, slots=True)
class ProcedureItem:
    """One rule of the procedure: the seed's ``number`` (``""`` where it has none) and its
    ``text`` in the reader's language."""

    number: str
    text: str


@dataclass(frozen=True, slots=True)
class ProcedurePart:
    """One group of the procedure: its ``title`` and ``items`` in the reader's language."""

    title: str
    items: list[ProcedureItem]


# Seed 001 (Makura 1.5) §10-§16, L84-104.
_MAKURA_15_DORA_AND_KANS: Part = (
    ("ドラとカン", "Dora and kans"),
    (
        (
            "10)",
            "ドラ表示牌は局の開始時(親の第１捨牌前)に１牌開ける。",
            "One dora indicator is turned over at the start of the hand (before the dealer's"
            " first discard).",
        ),
        (
            "11)",
            "カンドラは、暗カンの場合カンした時点でマーカーをめくる、明カンの場合カンツモ後牌を"
            "捨ててからマーカーをめくる。めくった瞬間から有効。（捨て牌で放銃した場合も有効）"
            "嶺上開花でツモあがりしたときにもマーカーをめくる。",
            "Kan dora: after a closed kan the indicator is turned at once; after an open kan,"
            " once the replacement tile is drawn and a tile discarded. It counts from the moment"
            " it is turned (also when that discard deals in). It is turned as well when the"
            " replacement tile wins (rinshan kaihou).",
        ),
        ("12)", "裏ドラの拒否権はなし。", "Ura dora cannot be declined."),
        (
            "14)",
            "王牌は常に14枚残し。王牌が13枚以下になるようなカンはできない。",
            "The dead wall always keeps 14 tiles: no kan may leave it with 13 or fewer.",
        ),
        (
            "15)",
            "4つのカンがあった時には、 5つ目以降のカンはできない。",
            "After four kans there is no fifth.",
        ),
        (
            "16)",
            "カンは連続して行なうことができる。チー、ポンに連続してカンは出来ない。",
            "Kans may follow one another; a kan may not follow straight after a chii or pon.",
        ),
    ),
)

_MAKURA_15_CALL_PRIORITY: Item = (
    "13)",
    "ポン、カン、チーは発声が優先される。（発声が同時の場合は「ポン」「カン」優先：同時かどうかは"
    "当事者以外の判断による）ロンは発声順位に関わらず全てに優先する。",
    "Among pon, kan and chii, the first call wins (calls at the same moment: pon and kan win;"
    " whether they were at the same moment is for the players not involved to judge). Ron"
    " beats every call, whatever the order of calling.",
)

_MAKURA_KUIKAE: Item = (
    "17)",
    "順子の喰い変えなし（現物、筋とも）。（した場合は、アガリ放棄）鳴いた牌と同じ牌を切るのは"
    "禁止。(した場合は即アガリ放棄、かつ打牌変更の義務を負う)",
    "No kuikae after a chii, neither the same tile nor the other end of the run (whoever does"
    " so may no longer win the hand: agari-houki). Discarding the tile just called is"
    " forbidden (agari-houki at once, and the discard must be changed).",
)

_MAKURA_15_OPEN_RIICHI: Item = (
    "18)",
    "オープンリーチあり（二翻）。部分さらし（アガリ手を示す部分だけ）、リーチ棒は通常リーチと"
    "同じ千点。オープンリーチに対しリーチ者以外の人が不注意ではなく、手詰まりで振り込んだ場合は"
    "役満。オープンリーチに対し不注意で当たり牌を出した時は、ノーカウントとしてその牌を手の中に"
    "戻し、改めて他の牌を出し直す。ノーカウントとされた牌については、チー、ポン、カン、ロンは"
    "出来ない。",
    "Open riichi (2 han): only the part of the hand that shows the wait is exposed; its stick"
    " is 1,000 as for riichi. A player not in riichi who deals into an open riichi because no"
    " other tile can be discarded (not by carelessness) pays a yakuman. A winning tile"
    " discarded to an open riichi by carelessness does not count: it goes back into the hand"
    " and another tile is discarded; no chii, pon, kan or ron may be called on it.",
)

# Seed 001 §20-§32, L126-179, less §18 (above) and the scoring items the sheet gives.
_MAKURA_RIICHI_REST: tuple[Item, ...] = (
    (
        "20)",
        "持ち点が1000点未満でもリーチをかけることはできる。ただし、その局に収入がなかった場合は、"
        "箱割れで終了となる。",
        "A player with fewer than 1,000 points may still declare riichi; if they take nothing"
        " in that hand, they are bust and the game ends.",
    ),
    (
        "21)",
        "自分のツモがない(残り 3牌以下)場合のリーチは不可能。宣言が行なわれた場合はペナルティー"
        "なしで「宣言がなかったこと」として扱われる。",
        "No riichi without a draw of one's own left (3 tiles or fewer in the wall); a"
        " declaration then is treated as never made, without penalty.",
    ),
    (
        "22)",
        "リーチ取り消しは、宣言牌に対する発声がなく、かつ下家が打牌するまでならば可能。"
        "この場合は空発声として扱う。（千点供託）",
        "A riichi may be withdrawn while nobody has called on its declaration tile and the"
        " next player has not discarded; it is then a false call (1,000 to the table).",
    ),
    (
        "26)",
        "リーチ後のあがり拒否(見送り/ツモ切り)あり。ただし以後フリテン扱いとなる。",
        "After riichi a win may be passed up (a discard let go, or the drawn tile discarded);"
        " the player is furiten from then on.",
    ),
    (
        "29)",
        "リーチ後のアンカンは次の３条件のすべてを満たすものに限りできる。"
        "a)ツモ牌が手牌の暗刻と同一牌である。b)アンカンしてもテンパイの形が変わらない。"
        "c)アンカンしてもメンツが移動しない。",
        "After riichi a closed kan is allowed only when all three hold: a) the drawn tile"
        " matches a concealed triplet in the hand; b) the kan leaves the tenpai shape as it"
        " was; c) the kan moves no set.",
    ),
    (
        "30)",
        "リーチ後に他家の手牌や裏ドラをのぞいてはならない。",
        "After riichi, never look at another player's hand or at the ura dora.",
    ),
    (
        "31)",
        "リーチ後にチョンボがあった場合、リーチ棒はかけた者に戻る。リーチ者のチョンボの場合は供託。",
        "When a chombo follows a riichi, the riichi stick goes back to its player; if the"
        " riichi player made the chombo, it stays on the table.",
    ),
    (
        "32)",
        "リーチ者、およびテンパイ宣言する者は、流局時に手牌を公開する。リーチをかけていない者が"
        "テンパイ宣言をして手牌を公開し、それがノーテンだった場合、単にノーテンとして扱われる。",
        "At an exhaustive draw, players in riichi and anyone declaring tenpai show their hands."
        " A player not in riichi who declares tenpai and shows a noten hand is simply noten.",
    ),
)

_MAKURA_CHOMBO: Item = (
    "33)",
    "以下の場合はチョンボとなり、自分以外の3人に４千点を支払う。",
    "These are chombo: the offender pays 4,000 to each of the other three.",
)

_MAKURA_15_FALSE_WIN: Item = (
    "a)",
    "正当なアガリでもないのにアガリを宣言ししたとき 但し、倒牌（自分、他人のいずれでも）前で"
    "あれば、取り消すことが出来る。この場合罰符千点を供託し、アガリ放棄となる。流局時はノーテン"
    "扱いとなる。リーチ者の場合も同様とする。但しノーテンチョンボとはしない。リーチ棒は供託とする。",
    "Declaring a win that is not a valid one. Before any hand is laid down (the caller's or"
    " another's) it may be taken back: 1,000 goes to the table as a penalty and the player"
    " may no longer win the hand (agari-houki), noten at a draw. The same for a player in"
    " riichi, but not as a noten-riichi chombo; the riichi stick stays on the table.",
)

_MAKURA_CHOMBO_CAUSES: tuple[Item, ...] = (
    (
        "b)",
        "リーチ後に正当でないアンカンをした場合（流局時にチョンボ）",
        "A closed kan after riichi that the rules do not allow (chombo at the draw).",
    ),
    (
        "c)",
        "故意過失を問わず、自分もしくは他家の牌山を大きく崩して復旧不能にし、局の続行を不可能に"
        "した場合（即チョンボ）",
        "Knocking over one's own or another's wall, on purpose or not, so that it cannot be"
        " rebuilt and the hand cannot go on (chombo at once).",
    ),
    (
        "e)",
        "ノーテンリーチをかけた場合（流局時にチョンボ）",
        "Declaring riichi while noten (chombo at the draw).",
    ),
    (
        "f)",
        "アガリ放棄の者がアガリを宣言した場合（即チョンボ)",
        "Declaring a win while under agari-houki (chombo at once).",
    ),
    (
        "34)",
        "チョンボが他の正当なアガリと同時に発生した場合は、アガリが優先され、チョンボは免除される。",
        "When a chombo comes together with a valid win, the win stands and the chombo is waived.",
    ),
    (
        "35)",
        "チョンボがあった局は無勝負となり、もう一度その局をやり直す。親は流れず、積み場も増えず、"
        "リーチがかかっていたならばリーチ棒はリーチ者に戻る。リーチ者のチョンボは供託。"
        "ただしそのチョンボによって持ち点が0点を切った者が出た場合は半荘終了となる。",
        "A hand with a chombo is void and played again: the dealer stays, no honba is added,"
        " and riichi sticks go back to their players (a riichi player's own chombo leaves"
        " theirs on the table). If the chombo takes anyone below 0, the hanchan ends.",
    ),
)

_MAKURA_AGARI_HOUKI: tuple[Item, ...] = (
    (
        "36)",
        "以下の場合はアガリ放棄となる。",
        "In these cases the player may no longer win the hand (agari-houki):",
    ),
    ("a)", "多牌および少牌した場合", "Too many or too few tiles in the hand."),
    (
        "b)",
        "鳴いた直後の打牌で、鳴いたものと同じ牌を打った場合(即アガリ放棄、かつ打牌変更の義務を負う)",
        "Discarding, straight after a call, the same tile as the one called (agari-houki at"
        " once, and the discard must be changed).",
    ),
    (
        "37)",
        "アガリ放棄となった者は、以後の一切の発声行為ができず、流局時にテンパイしていた場合も"
        "ノーテンとなる。",
        "A player under agari-houki may make no call of any kind from then on, and is noten"
        " at a draw even when tenpai.",
    ),
)

_MAKURA_15_FALSE_CALLS: Item = (
    "38)",
    "以下の場合は空（カラ）行為となり、罰符1000点を場に供託する。罰符はその局のアガリ者が取得"
    "する。流局またはチョンボがあった場合、罰符は次局以降に供託される。半荘が終了した場合、"
    "供託されていた罰符はトップ者が取得する。なお、さらし間違いについては、打牌前であれば修正"
    "可能とし、罰符の対象とはしない。",
    "These are false acts (kara): a penalty of 1,000 goes to the table. The hand's winner"
    " takes it; after a draw or a chombo it stays on the table for the hands after; at the"
    " end of the hanchan the top player takes what is left. A set exposed wrongly may be put"
    " right before the discard, without penalty.",
)

_MAKURA_FALSE_CALL_CAUSES: tuple[Item, ...] = (
    (
        "a)",
        "チーポンカンを発声し、直後にそれを取り消した場合。発声種類を間違った場合(チーするところを"
        "ポンと言ったなど)も同様。",
        "Calling chii, pon or kan and taking it back at once; also calling the wrong one (pon"
        " where chii was meant, say).",
    ),
    (
        "b)",
        "チーポンカンを発声し、手牌の一部をさらした時点でそのチーポンカンが正当なものでないと"
        "判明した場合。",
        "Calling chii, pon or kan and finding, once tiles are exposed, that the call was not"
        " a valid one.",
    ),
    (
        "c)",
        "チーポンカンを発声し、手牌の一部をさらしたあと、さらした牌を手に戻して別な牌構成で手牌の"
        "一部をもう一度さらした場合。",
        "Calling, exposing tiles, then taking them back and exposing other tiles instead.",
    ),
    (
        "d)",
        "アガリ放棄の者がチーポンカンの発声をした場合。",
        "Calling chii, pon or kan while under agari-houki.",
    ),
    (
        "e)",
        "リーチを発声し、打牌した後にそれを取り消した場合。このタイミングは打牌に対し鳴きが入らず、"
        "かつ下家の打牌が完了するまでに限る。",
        "Declaring riichi, discarding, and then withdrawing it (only while nobody has called"
        " that discard and the next player has not finished discarding).",
    ),
    (
        "39)",
        "チーポンカンを取り消した場合、次の自分のツモまでは、ロンの発声ができない。",
        "After taking back a chii, pon or kan, the player may not call ron until their next draw.",
    ),
    (
        "40)",
        "リーチを取り消した場合、次の自分のツモまでは、一切の発声行為ができない。",
        "After withdrawing a riichi, the player may make no call of any kind until their next"
        " draw.",
    ),
)

_MAKURA_15_FURITEN: Item = (
    "41)",
    "同順フリテンはツモ順が回ってきた時点で解消される。",
    "Temporary furiten ends when the player's turn to draw comes round.",
)

_MAKURA_NO_MISEHAI: Item = (
    "42)",
    "見せ牌規定はなし。",
    "No penalty for showing a tile (mise-hai).",
)


# Seed 000 writes digits and brackets half-width where seed 001 often writes them full-width.
_HALF_WIDTH = str.maketrans("０１２３４５６７８９（）", "0123456789()")


def _makura(
    call_priority: Item,
    open_riichi: Item,
    false_win: Item,
    false_calls: Item,
    furiten: Item,
    half_width: bool = False,
) -> tuple[Part, ...]:
    """The Makura procedure from the items in which the versions' words differ; with
    ``half_width``, the items both versions share in seed 000's half-width digits and
    brackets."""

    def shared(items: tuple[Item, ...]) -> tuple[Item, ...]:
        if not half_width:
            return items
        return tuple((number, ja.translate(_HALF_WIDTH), en) for number, ja, en in items)

    return (
        (_MAKURA_15_DORA_AND_KANS[0], shared(_MAKURA_15_DORA_AND_KANS[1])),
        (
            ("ポン・チー・カン", "Calls: pon, chii, kan"),
            (call_priority, *shared((_MAKURA_KUIKAE,))),
        ),
        (("リーチ", "Riichi"), (open_riichi, *shared(_MAKURA_RIICHI_REST))),
        (
            ("チョンボ", "Chombo"),
            (*shared((_MAKURA_CHOMBO,)), false_win, *shared(_MAKURA_CHOMBO_CAUSES)),
        ),
        (("アガリ放棄", "Agari-houki"), shared(_MAKURA_AGARI_HOUKI)),
        (
            ("空（カラ）行為・フリテン", "False calls and furiten"),
            (
                false_calls,
                *shared(_MAKURA_FALSE_CALL_CAUSES),
                furiten,
                *shared((_MAKURA_NO_MISEHAI,)),
            ),
        ),
    )


# Seed 000 (Makura 1.3): the items whose words differ from v1.5's.
_MAKURA_13_CALL_PRIORITY: Item = (
    "13)",
    "ポン、カンはチーに、ロンは全てに優先するが、発声が著しく遅れた場合は優先されない。"
    "(同時の場合は「ポン」「カン」優先:同時かどうかは当事者以外の判断による)",
    "Pon and kan beat chii and ron beats every call, but a call made markedly late loses its"
    " priority (calls at the same moment: pon and kan win; whether they were at the same"
    " moment is for the players not involved to judge).",
)

_MAKURA_13_OPEN_RIICHI: Item = (
    "18)",
    "オープンリーチあり(二翻)。部分さらし(アガリ手を示す部分だけ)、リーチ棒は通常リーチと同じ"
    "千点。リーチ者以外が振り込んだ場合は役満。",
    "Open riichi (2 han): only the part of the hand that shows the wait is exposed; its stick"
    " is 1,000 as for riichi. A player not in riichi who deals into it pays a yakuman.",
)

_MAKURA_13_FALSE_WIN: Item = (
    "a)",
    "正当なアガリでもないのにアガリを宣言ししたとき(即チョンボ)",
    "Declaring a win that is not a valid one (chombo at once).",
)

_MAKURA_13_FALSE_CALLS: Item = (
    "38)",
    "以下の場合は空(カラ)行為となり、罰符1000点を場に供託する。罰符はその局のアガリ者が取得"
    "する。流局またはチョンボがあった場合、罰符は次局以降に供託される。半荘が終了した場合、"
    "供託されていた罰符はトップ者が取得する。",
    "These are false acts (kara): a penalty of 1,000 goes to the table. The hand's winner"
    " takes it; after a draw or a chombo it stays on the table for the hands after; at the"
    " end of the hanchan the top player takes what is left.",
)

_MAKURA_13_FURITEN: Item = (
    "41)",
    "同巡フリテンはツモ順が回ってきた時点で解消される。",
    _MAKURA_15_FURITEN[2],
)

_MAKURA_15 = _makura(
    _MAKURA_15_CALL_PRIORITY,
    _MAKURA_15_OPEN_RIICHI,
    _MAKURA_15_FALSE_WIN,
    _MAKURA_15_FALSE_CALLS,
    _MAKURA_15_FURITEN,
)
_MAKURA_13 = _makura(
    _MAKURA_13_CALL_PRIORITY,
    _MAKURA_13_OPEN_RIICHI,
    _MAKURA_13_FALSE_WIN,
    _MAKURA_13_FALSE_CALLS,
    _MAKURA_13_FURITEN,
    half_width=True,
)

# Seed 004 (Shinbashi FUJI Club), L40-46 and L62-138, in the seed's order and headings.
_FUJI: tuple[Part, ...] = (
    (
        ("オープンリーチ", "Open riichi"),
        (
            (
                "",
                "手詰まりで放銃した場合は役満払い",
                "A player who deals in because no other tile can be discarded pays a yakuman.",
            ),
            ("", "リーチ料は2,000点", "The open riichi stick is 2,000."),
            (
                "",
                "打牌前に手牌を全て公開して下さい",
                "Show the whole hand before the declaring discard.",
            ),
            (
                "",
                "ツモ和了or他のリーチ者が放銃した場合は1ハン増し",
                "One han more when it wins by tsumo or when another player in riichi deals in.",
            ),
            (
                "",
                "失意による放銃は河から戻して和了放棄",
                "A careless deal-in goes back from the discards, and the discarder may no longer"
                " win the hand (agari-houki).",
            ),
            (
                "",
                "オープンリーチ後の見逃し、ツモの拒否は出来ません",
                "After open riichi a win may not be passed up, by ron or by tsumo.",
            ),
        ),
    ),
    (
        ("進行", "Play"),
        (
            ("", "ツモ番のないリーチがかけれます。", "Riichi may be declared with no draw left."),
            ("", "形式テンパイあり。", "Tenpai in form only counts as tenpai."),
            (
                "",
                "見せ牌・腰牌・パオはありません。",
                "No penalty for showing a tile or for a hesitation tell (koshi-hai); no pao.",
            ),
        ),
    ),
    (
        ("空行為について", "False calls"),
        (
            (
                "",
                "空ポン、空カン・・・1,000点を供託して取消可能です。"
                "(空カンは、新ドラがめくれた後・領上を触った後の取消不可)",
                "A false pon or kan may be taken back by putting 1,000 on the table (a false"
                " kan not once the new dora is turned or the replacement tile touched).",
            ),
            (
                "",
                "どの場合でも、取り消した巡目でのロンあがりはできません。",
                "In every case, no ron in the turn of the taking back.",
            ),
        ),
    ),
    (
        ("誤行為について", "Mistaken calls"),
        (
            (
                "",
                "誤ポン・・・打牌前であれば晒していても1,000点を供託して取消可能です。"
                "打牌が完了してしまった場合、次の自分のツモ番前までであれば訂正可能です。",
                "A mistaken pon may be taken back before the discard, even once exposed, by"
                " putting 1,000 on the table; after the discard, it may be corrected up to the"
                " player's next draw.",
            ),
            (
                "",
                "誤カン・・・新ドラ表示前で、領上牌に触れていなければ、1,000点供託で取消可能。"
                "リーチ後の誤カンについても同様です。",
                "A mistaken kan may be taken back for 1,000 before the new dora is shown and"
                " while the replacement tile is untouched; the same after riichi.",
            ),
            (
                "",
                "誤リーチ・・・下家の打牌前までであれば取消可能。ただし、宣言牌に鳴きが入った"
                "場合は取消不可。",
                "A mistaken riichi may be taken back until the next player discards, but not"
                " once its declaring tile has been called.",
            ),
            (
                "",
                "どの場合でも、取り消した巡目でのロンあがりはできません。",
                "In every case, no ron in the turn of the taking back.",
            ),
            ("", "また、誤行為は一発は消えません。", "A mistaken call does not cancel ippatsu."),
        ),
    ),
    (
        (
            "特殊ケース(ゲームの性質上できない行為等)",
            "Special cases (acts the game does not allow)",
        ),
        (
            (
                "",
                "誤チーで打牌したような場合・鳴いているのにリーチ・できないタイミングでの「カン」の"
                "発声・河底牌でリーチ 等",
                "Discarding after a mistaken chii; riichi with an open hand; calling kan when no"
                " kan is possible; riichi on the last discard; and the like.",
            ),
            (
                "",
                "このような行為は基本的にはノーペナルティですが、お店の判断で別の裁定をする場合も"
                "あります。",
                "Such acts carry no penalty as a rule, though the house may rule otherwise.",
            ),
            (
                "",
                "場に3枚出ている牌に対して、ポンなどはゲームの性質上できない行為であっても、"
                "誤ポンの罰則が適用になります。",
                "A pon on a tile of which three are already in sight is impossible, yet it"
                " takes the mistaken pon's penalty.",
            ),
        ),
    ),
    (
        ("多牌・少牌", "Too many or too few tiles"),
        (
            (
                "",
                "多牌はあがり放棄ノーテン扱い、少牌はその人の7打目まで補充可能。次のツモ番に"
                "不足分を補充し、それまではポン・カンできません。7打目以降はあがり放棄です。",
                "Too many tiles: agari-houki, noten. Too few: they may be made up until the"
                " player's 7th discard, at their next draw, with no pon or kan until then;"
                " after the 7th discard, agari-houki.",
            ),
            (
                "",
                "花牌を抜いての補充忘れは気づいた時点で次のツモ番時に嶺上から不足分を補充できます。"
                "それまでポン・カンできません。",
                "A flower set aside without its replacement: the missing tile is drawn from the"
                " dead wall at the next draw after it is noticed; no pon or kan until then.",
            ),
        ),
    ),
    (
        ("オープンリーチ関連", "Open riichi rulings"),
        (
            (
                "",
                "オープンリーチに対する失意での放銃は、その牌を戻してあがり放棄(基本ルール)",
                "A careless deal-in to an open riichi: the tile goes back and the discarder"
                " may no longer win the hand (the basic rule).",
            ),
            (
                "",
                "ただしもう一人のオープンリーチをかけていない人からロンの発生があれば二者の"
                "あがりを認め、その場合オープンリーチは2翻ではなく6翻になります。",
                "But if another player, not in open riichi, also calls ron, both wins stand,"
                " and the open riichi then counts 6 han instead of 2.",
            ),
            (
                "",
                "オープンリーチ者があがり牌を間違って河に切ってしまった場合、戻してツモと言えます。"
                "(強制あがり)",
                "An open riichi player who discards their own winning tile by mistake takes it"
                " back and declares tsumo (a forced win).",
            ),
            (
                "",
                "オープンリーチの手牌公開後※の取消はリーチと同様の条件で可能です。ただし、以降の"
                "あがりにオープンリーチ縛りがかかります。(ダマや普通のリーチではツモロンともに"
                "不可・オープンリーチをしていなくても、流局時の聴牌宣言は可能) ※手牌公開前なら"
                "通常の取消と同じ。ただし、オープンと発生後に打牌した場合はオープンリーチ縛りが"
                "適用になります。(いわゆるマナー悪徳にならないようにする為です。",
                "An open riichi may be withdrawn after the hand is shown on the same terms as a"
                " riichi, but the player may then win only by open riichi (not by a silent hand"
                " or an ordinary riichi, ron or tsumo; tenpai may still be declared at a draw)."
                " Before the hand is shown it is an ordinary withdrawal, but a player who has"
                " called 'open' and discarded is bound to open riichi all the same (so that it"
                " cannot be played as a trick).",
            ),
            (
                "",
                "二件オープンリーチに対する手詰まりは、以下の優先順位で処理します。"
                "1.親と子なら、子優先 2.どちらも子なら自分の下家優先",
                "A forced deal-in with two open riichi goes, in this order: 1. dealer and"
                " non-dealer: to the non-dealer; 2. two non-dealers: to the discarder's next"
                " player.",
            ),
            (
                "",
                "役満オープンに手詰まりになった場合、点棒はダブル役満分になります。",
                "A forced deal-in to an open riichi on a yakuman pays a double yakuman.",
            ),
            (
                "",
                "役満を含む2件のオープンに対する手詰まりも、上記と同様で子または下家優先です。",
                "With two open riichi, one of them on a yakuman, a forced deal-in goes the same"
                " way: the non-dealer, or the next player, first.",
            ),
        ),
    ),
    (
        ("その他・レアケース裁定(原則)", "Other rulings and rare cases (as a rule)"),
        (
            (
                "",
                "局中に空行為による罰符が発生し、持ち点が0点以下になった場合、その状態で続行し"
                "あがれます。局終了時に0点以上あればトビではありません。",
                "A false call's penalty that takes a player to 0 or below in the middle of a"
                " hand: play goes on and they may win; with 0 or more at the hand's end they"
                " are not bust.",
            ),
            (
                "",
                "ポン→カン、カン→ポンの言い直しは1,000点供託が必要です。",
                "Correcting pon to kan or kan to pon puts 1,000 on the table.",
            ),
            ("", "嶺上と海底は複合しません。", "Rinshan and haitei do not combine."),
            (
                "",
                "流し役満は流局時成立であがり扱い。(複数人同時に流し役満が成立した場合のあがりを"
                "認め、お互いに点棒のやり取りをします。)",
                "Nagashi yakuman is made at the draw and counts as a win (several players"
                " making it at once all win, and pay one another).",
            ),
            (
                "",
                "四カンツは4つ目のカンをした後、嶺上牌をツモり打牌が完了した時点であがりになります。",
                "Suukantsu wins once the fourth kan's replacement tile is drawn and the discard"
                " made.",
            ),
        ),
    ),
    (
        ("オープンリーチの待ち宣言間違いについて", "Open riichi: a wait declared wrongly"),
        (
            (
                "a",
                "多く申告した場合(1457待ちを12457と申告等)",
                "Declaring more tiles than the wait (1-4-5-7 declared as 1-2-4-5-7):",
            ),
            (
                "a-1",
                "局の進行途中で気づいた場合 気づいた以降、その牌は切ることができます。気づく前に"
                "「切れないと思って止めた」分については確認しなかった全員の責任となります。"
                "(全員ペナルティーで続行)",
                "noticed during the hand: from then on that tile may be discarded; tiles held"
                " back before as 'not to be discarded' are the fault of everyone who did not"
                " check (all penalised, play goes on).",
            ),
            (
                "a-2",
                "あがった時点で気づいた 正規のあがり牌であればあがりが有効です。あがり牌でない牌で"
                "ツモやロンの発声をしてしまった場合チョンボになります。",
                "noticed at the win: a true winning tile wins; calling tsumo or ron on a tile"
                " that does not win is chombo.",
            ),
            (
                "b",
                "少なく申告した場合(1457待ちを147と申告等)",
                "Declaring fewer tiles than the wait (1-4-5-7 declared as 1-4-7):",
            ),
            (
                "b-1",
                "局の進行途中に気づいた場合 気づいた以降、その牌は切れなくなります。もし誰かが"
                "気づく前に、本来あがりであったはずの牌を見逃したりツモ切っていた場合、誰かが"
                "気づく(指摘する)まではその牌はフリテンとはみなしません。その牌はそのオープン"
                "リーチに対して無関係の牌という扱いで、全員ペナルティで続行なので、指摘以降正常に"
                "進行すれば、あがる事ができます。",
                "noticed during the hand: from then on that tile may not be discarded. A winning"
                " tile let go or discarded before anyone noticed is not furiten until someone"
                " points it out: it counts as a tile unrelated to the open riichi, everyone is"
                " penalised and play goes on, and the player may win once it is pointed out.",
            ),
            (
                "b-2",
                "あがった時点で気づいた それまでにあがり牌を見逃したりツモ切っていたとしても、"
                "それまで誰も気づかなかった(指摘がなかった)・誰かが気づき指摘したがその後正常に"
                "局が進行した場合、あがりが有効となります。(b-1と同じ)",
                "noticed at the win: the win stands even if winning tiles were let go or"
                " discarded before, when nobody noticed, or someone pointed it out and the hand"
                " went on normally (as b-1).",
            ),
        ),
    ),
    (
        ("チョンボ・あがり放棄について", "Chombo and agari-houki"),
        (
            (
                "",
                "あがり放棄→誤ロン、誤ツモ(発声のみ)、その他上記に記載があるもの",
                "Agari-houki: a mistaken ron or tsumo (called only), and the cases above.",
            ),
            (
                "",
                "流局時チョンボ→リーチ後の誤ツモ、誤ロン(発声のみ)、フリテンリーチ、"
                "リーチ後のできないカン",
                "Chombo at the draw: after riichi, a mistaken tsumo or ron (called only),"
                " riichi in furiten, a kan the rules do not allow after riichi.",
            ),
            (
                "",
                "即チョンボ(原則)→誤ツモ、誤ロンで倒した場合、お店がチョンボと判断した場合 "
                "※誤ツモによる倒牌は、ツモ切りして通ったらチョンボ",
                "Chombo at once (as a rule): a mistaken tsumo or ron with the hand laid down,"
                " or whatever the house rules a chombo (a hand laid down for a mistaken tsumo"
                " is chombo if the tile, then discarded, is not won on).",
            ),
            (
                "",
                "ツモ牌が不明な場合、手の内に誰かのあたり牌があれば高め取りで放銃扱い。"
                "(違う牌で2人に放銃扱いになったとしてもダブロン扱い)",
                "When the drawn tile cannot be told, a tile in the hand that wins for someone"
                " deals in at the higher value (two players on different tiles: a double ron).",
            ),
            (
                "",
                "ゲームの続行ができないとお店が判断した場合、誰かをチョンボorノーゲーム扱いとする"
                "場合があります。",
                "When the house rules the game cannot go on, it may give someone a chombo or"
                " call the game void.",
            ),
        ),
    ),
)

# Seed 003 (the home game, わが家のルール), L84-88, L123-134, L221-261, L299-342, L357-410,
# L420-435: the blog's lines joined where a sentence runs over two, its spelling kept.
_HOME: tuple[Part, ...] = (
    (
        ("喰い替え", "Kuikae"),
        (
            (
                "",
                "喰い替え は禁止、やったらあがり放棄",
                "Kuikae is forbidden; whoever does it may no longer win the hand (agari-houki):",
            ),
            ("", "ポンで1をないて 111をさらして1を捨てる", "pon on a 1, show 111, discard a 1;"),
            ("", "チーで1をないて123をさらして1を捨てる", "chii on a 1, show 123, discard a 1;"),
            ("", "チーで1をないて123をさらして4を捨てる", "chii on a 1, show 123, discard a 4."),
            (
                "",
                "(234567もっていて、8ないて2捨てるのはOK、135もっていて4ないて1捨てるのもOK)",
                "(Holding 234567, calling 8 and discarding 2 is fine; holding 135, calling 4 and"
                " discarding 1 is fine too.)",
            ),
        ),
    ),
    (
        ("ステハイの成立、ロン、ツモの成立、鳴きの成立", "When a discard, a win and a call count"),
        (
            (
                "",
                "捨てるのが成立するのは、場に完全に出して手を放した場合、"
                "少し前に出した場合でも、手を放していなければひっこめてやり直してよい。",
                "A discard counts once the tile is fully out and the hand has let go of it; a"
                " tile pushed a little forward but still held may be taken back.",
            ),
            (
                "",
                "手を放す前に、ポン、チー、カン、ロンなどを宣言しても無効となる",
                "A pon, chii, kan or ron called before the discarder lets go of the tile does"
                " not count.",
            ),
            (
                "",
                "ポン、チー、カン、などは宣言だけでは成立しない。"
                "場にさらして成立する。この場合、自分の手配をさらした時点での成立となる",
                "A pon, chii or kan is not made by calling alone: it is made when the tiles are"
                " shown, at the moment the caller shows their own tiles.",
            ),
            (
                "",
                "他の人のステハイは持ってきていない時点でも成立する「",
                "It counts even before the other player's discard has been taken.",
            ),
        ),
    ),
    (
        ("カンした場合", "Kans"),
        (
            (
                "",
                "アンカンでも、一発、ダブルリーチ、9種9杯はなくなる。",
                "Even a closed kan ends ippatsu, double riichi and nine terminals.",
            ),
            (
                "",
                "カンドラ表示牌はアンカンのときはすぐにめくるが,"
                "大明槓、チャンカンの場合は嶺上牌をつもり,牌を捨ててから槓ドラ表示牌をめくる",
                "The kan dora indicator is turned at once for a closed kan; for an open kan, or"
                " a kan robbed (chankan), after the replacement tile is drawn and a tile"
                " discarded.",
            ),
            (
                "",
                "アンカン、大ミンカン、チャンカンのいずれかのツモで上がった場合でも、"
                "めくってはいないがカンドラ、カン裏ドラはめくって成立する",
                "A win on the draw after a closed or open kan counts the kan dora and kan ura"
                " dora, though not yet turned: they are turned for it.",
            ),
            (
                "",
                "チャンカン振込みでもカンドラ、カン裏どらOKとする",
                "A deal-in by chankan counts the kan dora and kan ura dora too.",
            ),
            (
                "",
                "捨てパイによりミンカン後、リャンシャンした場合、カンされた人の一人払い"
                "この場合もツモとして判断し、2府つく",
                "A rinshan win after an open kan on a discard: the player whose discard was"
                " called pays it all, and it is still a tsumo (2 fu).",
            ),
            (
                "",
                "ただし、最初に他家からのミンカンがフリテンだった場合にはツモ上がりはできない。"
                "上がった場合、フリテンチョンボになる",
                "But if the kan was called in furiten, it cannot win on the draw; a win then is"
                " a furiten chombo.",
            ),
            (
                "",
                "4回目のカンが二人以上の場合にはステハイがロンされない場合に流れる"
                "ステハイがロンされた場合にはふりこみとなり流れない",
                "Four kans by two or more players end the hand if the discard after the fourth"
                " is not won on; if it is, it is a deal-in and the hand does not end.",
            ),
            (
                "",
                "連続のミンカン後のアンカンでも、ドラはめくれない、捨てた後で2枚以上を同時にめくる",
                "Kans in a row: after an open kan, even a closed kan turns no dora yet; two or"
                " more indicators are turned together after the discard.",
            ),
            (
                "",
                "アンカン後はチャンカンがあった時点でめくれなくなる",
                "After a closed kan, none is turned once the kan is robbed.",
            ),
            (
                "",
                "リーチ時のステハイでの大ミンカン後"
                "大ミンカン直後の積もった時点でリーチは成立となる"
                "よって、大ミンカン後のツモ、リャンシャンカイホウの場合リーチは成立し"
                "リーボーは取られる",
                "An open kan on the riichi declaration tile: the riichi stands once the kan's"
                " replacement tile is drawn, so with a rinshan win after it the riichi counts"
                " and the stick is paid.",
            ),
            (
                "",
                "ダブルリーチ、チーホー、一発、9種9牌などは、アンカンなどが発生すると成立しない"
                "一回目のツモ、ロンなどで成立するものすべて",
                "Double riichi, chiihou, ippatsu, nine terminals, everything made on a first"
                " draw or first ron, is lost once a closed kan (or any call) is made.",
            ),
        ),
    ),
    (
        ("チョンボの支払とルール", "Chombo and agari-houki"),
        (
            (
                "",
                "チョンボはマンガン払い 親は12000、4000ALL 子は8000、4000,2000",
                "A chombo pays a mangan: a dealer 12,000, 4,000 all; a non-dealer 8,000, 4,000"
                " and 2,000.",
            ),
            (
                "",
                "多牌、フリテンロン、誤ロン・誤ツモ、即チョンボ"
                "誤ロン、誤ツモの成立は宣言でなる。さらさなくてもチョンボ",
                "Chombo at once: too many tiles, ron in furiten, a mistaken ron or tsumo. A"
                " mistaken ron or tsumo is made by the call: chombo even with the hand not"
                " shown.",
            ),
            (
                "",
                "(同順フリテンの適用は、自分が牌を切って次の自分の番が回ってくるまでと見なす。"
                "その間にポンやチーが入っても同順フリテンとなる(ロンはできない)。)",
                "(Temporary furiten lasts from the player's discard until their next turn, pon"
                " or chii in between or not: no ron.)",
            ),
            (
                "",
                "リーチ後の送り槓(順子の形が567から678に変わる)、待ちが変わるカンはちょんぼ"
                "待ちの種類の変わる槓、面子の変わる槓は流局後にチョンボ",
                "After riichi, a kan that shifts a run (567 becoming 678) or changes the wait is"
                " chombo; a kan that changes the kind of wait or the sets is chombo at the"
                " draw.",
            ),
            (
                "",
                "ノーテンリーチは流局後にチョンボ"
                "誰かが途中上がった場合、手配を見せる必要がないのでチョンボにはならない。",
                "Riichi while noten is chombo at the draw; when someone wins first, the hand"
                " need not be shown, so it is no chombo.",
            ),
            (
                "",
                "少牌、誤チー・誤ポン・誤カンは、上がり放棄 カラテンは上がり放棄",
                "Agari-houki: too few tiles, a mistaken chii, pon or kan, a wait with no tile"
                " left (karaten).",
            ),
            (
                "",
                "あがり放棄になって終局になってもマンガン払いはなし。"
                "上がり放棄となった場合流局後にテンパイとはならない",
                "Agari-houki pays no mangan, even when the game ends; under agari-houki a"
                " player is not tenpai at the draw.",
            ),
            (
                "",
                "フリテン立直はつもならOK,見逃しも問題なし よって、リーチ後でも裏ドラは見ては"
                "いけない",
                "Riichi in furiten may win by tsumo, and a win may be passed up, so even after"
                " riichi never look at the ura dora.",
            ),
            ("", "オープンリーチでも見逃しOK", "Even in open riichi a win may be passed up."),
            (
                "",
                "誤ロンは宣言でチョンボとなるが、それに準じた宣言 一発などもチョンボとなる",
                "A mistaken ron is chombo by its call, and so is a call like it ('ippatsu' and"
                " the like).",
            ),
        ),
    ),
    (
        ("オープンリーチ", "Open riichi"),
        (
            (
                "",
                "リーチした捨てパイでロンされた場合、リーチ棒はださなくてよい",
                "A riichi whose declaration tile is won on puts no stick down.",
            ),
            (
                "",
                "オープンリーチ有(フリテンでもよい)"
                "(リーチをかけてない人がオープンリーチに振り込んだ場合は役満になります)",
                "Open riichi is played, in furiten too (a player not in riichi who deals into"
                " it pays a yakuman).",
            ),
            (
                "",
                "さらすのは上がりに関係するものだけでよい",
                "Only the tiles that make the wait need be shown.",
            ),
            (
                "",
                "オープンリーチでの振り込みは、すべてのハイが当たりの場合だけ成立する",
                "A deal-in to an open riichi stands only when every tile in the hand wins for it.",
            ),
            (
                "",
                "あたりハイを捨てた場合、手配をすべて公開し、あたりハイがなかった場合、"
                "あたりハイを手配に戻して、あたりではないハイを捨てて続行する"
                "この場合には上がり放棄などのペナルティーはない",
                "A player who discards a winning tile shows the whole hand; if it holds a tile"
                " that does not win, the winning tile goes back and that tile is discarded,"
                " with no penalty such as agari-houki.",
            ),
            (
                "",
                "オープンリーチ後の追っかけリーチでは振り込み役満とはならない",
                "A player who declares riichi after the open riichi pays no yakuman for"
                " dealing into it.",
            ),
            (
                "",
                "オープンリーチは関係あるパイをすべてさらしていない場合チョンボとなる",
                "An open riichi that does not show every tile of its wait is chombo:",
            ),
            (
                "",
                "2333456ともっていて147待ちと勘違いし23456しかさらさなかった場合チョンボとなる"
                "2でも単騎待ちで上がれるため23456だけさらしている場合2では上がりとはならない。",
                "holding 2333456 and taking the wait for 1-4-7, showing only 23456: chombo, as"
                " 2 also wins (a pair wait), and with only 23456 shown, 2 does not win.",
            ),
            (
                "",
                "1113444では待ちは2と5と3になる 2と5は111のメンツと44の頭、"
                "34の両面待ちと判断することができる。しかし、11の頭と444のメンツ"
                "13のカンチャン待ちでもあるので111もさらさないとチョンボとなる",
                "1113444 waits on 2, 5 and 3: 2 and 5 as 111 and the pair 44 with 34 waiting"
                " on both sides, but also 3 as the pair 11, 444 and 13 waiting in the middle;"
                " not showing 111 too is chombo.",
            ),
            (
                "",
                "1123の場合、待ちは1と4になるが、1は両面にもなるし、"
                "1タンキにもなるので23をさらしただけではチョンボ 1123をさらさないといけない",
                "1123 waits on 1 and 4, 1 both as a two-sided wait and as a pair wait: showing"
                " only 23 is chombo; 1123 must be shown.",
            ),
            (
                "",
                "オープンリーチ後に振り込みになるときのチョンボ(ミスでも故意でも)は認められない"
                "この場合、上がり放棄となり、そのまま続ける。",
                "A chombo to avoid dealing into an open riichi (by mistake or on purpose) is not"
                " allowed: the player is under agari-houki and play goes on.",
            ),
            (
                "",
                "誰かが上がった後場合、上がり点のやり取りをした後で、チョンボ代のやり取りを行う"
                "流局になった場合、チョンボのやり取りだけを行う",
                "If someone then wins, the win is paid first and the chombo after; at a draw,"
                " only the chombo is paid.",
            ),
        ),
    ),
    (
        ("パオ", "Pao"),
        (
            (
                "",
                "白と発が泣いている状態で中を泣かせた場合パオとなるが"
                "この状態で、字一色のダブル役満の場合、字一色も含めて、パオと"
                "なっている人の責任払いとなる",
                "Letting a player with haku and hatsu called call chun is pao; if the hand is"
                " then a double yakuman with tsuuiisou, the pao player pays all of it,"
                " tsuuiisou included.",
            ),
            (
                "",
                "パオとなったとき、チョンボすることは認められない(わざとミスとわず)"
                "この場合上がり放棄となり、上がりまたは流局後の点数をやり取りした後で"
                "チョンボ代を支払う",
                "A player under pao may not escape by a chombo (on purpose or not): they are"
                " under agari-houki, and pay the chombo after the win or the draw is paid.",
            ),
            (
                "",
                "リーチ後でもパオとなる たとえば他家が中だけ鳴いていてリーチ後、その人が"
                "白と鳴いて、リーチをかけた人の発で鳴いた場合でもパオとなる。",
                "Pao applies after riichi too: if a player who has called chun then calls haku"
                " and then hatsu from the player in riichi, that is pao as well.",
            ),
        ),
    ),
)

_BY_RULESET: dict[str, tuple[Part, ...]] = {
    "makura-1.5": _MAKURA_15,
    "makura-1.3": _MAKURA_13,
    "fuji-sanma": _FUJI,
    "home-nashinashi": _HOME,
}


def ruleset_procedure(ruleset_id: str) -> list[ProcedurePart]:
    """The play procedure of the club that plays ``ruleset_id`` in the active language
    (Japanese: the seed's words; any other: English); ``[]`` where the seed states none."""
    pick = 1 if (get_language() or "").startswith("ja") else 2
    return [
        ProcedurePart(title[pick - 1], [ProcedureItem(item[0], item[pick]) for item in items])
        for title, items in _BY_RULESET.get(ruleset_id, ())
    ]
