"""The manners of the clubs whose seeds state them, as the rules page shows
them: the seed's own words on a Japanese page, an English rendering on an English one.

- Makura Club (rulesets ``makura-1.5`` and ``makura-1.3``, played under the same guide):
  枕倶楽部マナーガイド, seed 001 L1-35.
- Shinbashi FUJI Club (``fuji-sanma``): マナー・禁止事項, seed 004 L140-163.

Each item is ``(japanese, english)``; the Japanese is the seed's line as written (the seed's
brackets and numbering kept), the English is ours.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import get_language


@dataclass(frozen=True, slots=True)
class MannersPart:
    """One list of the manners: its ``title`` and ``items`` in the reader's language."""

    title: str
    items: list[str]


_MAKURA: tuple[tuple[str, str], tuple[tuple[str, str], ...]] = (
    ("枕倶楽部マナーガイド", "The Makura Club's manners guide"),
    (
        (
            "大人の社交場にふさわしい静かでスマートな摸打・動作、楽しい雰囲気作りを心がけましょう。",
            "Draw, discard and move quietly and smartly, as befits a club of grown-ups, and help"
            " keep the mood a happy one.",
        ),
        ("ジョーク、雑談のごときは、是を大いに奨励します。", "Jokes and chat are most welcome."),
        (
            "金銭の貸し借りはやめましょう。（出かける前に財布チェック！を忘れずにね）",
            "Do not lend or borrow money (check your wallet before you leave home!).",
        ),
        (
            "牌を叩きつけるのはやめましょう。卓が泣いています。",
            "Do not slam tiles down: the table weeps.",
        ),
        ("先ヅモは厳禁です。", "Never draw before your turn (saki-zumo)."),
        (
            "山割れ者はドラ牌を速やかにめくりましょう。",
            "Whoever breaks the wall turns the dora indicator over at once.",
        ),
        (
            "リンシャン牌は落ちやすいので下に降ろしましょう。",
            "Put the rinshan tiles down beside the wall: they fall easily.",
        ),
        ("捨て牌は１列６枚切りで整頓しましょう。", "Keep your discards tidy, six to a row."),
        (
            "河にいったん捨てた牌は入れ替えてはいけません。",
            "A tile once discarded is never swapped.",
        ),
        (
            "リーチ後といえど人の手牌、裏ドラを覗いてはいけません。"
            "（和了り見逃し有りなので、その選択に影響するため）",
            "Even after riichi, never peek at another player's hand or the ura dora (a win may be"
            " passed up here, and a peek would sway that choice).",
        ),
        (
            "チーは一呼吸おいてから。（ポン、カンとの無用な衝突を避けるため）",
            "Call chii after a breath (so as not to clash with a pon or kan).",
        ),
        ("発声は必ず明確にしましょう。", "Always call clearly."),
        (
            "上がった時は、面子全員が手を確認するまでかき混ぜるのはやめましょう。",
            "After a win, do not mix the tiles until everyone at the table has seen the hand.",
        ),
        (
            "対局中の携帯電話・メールは控えましょう。緊急の場合は短い休憩をとりましょう。",
            "No phone calls or mail during play; if it is urgent, take a short break.",
        ),
        ("対局中の喫煙は控えましょう。", "No smoking during play."),
        (
            "喫煙は、半荘終了後の休憩時間に、待合室でしましょう。",
            "Smoke in the waiting room, in the break after a hanchan.",
        ),
        (
            "私信で用が足りることは、メーリングリストへは流さないようにしましょう。",
            "What a private message can settle does not go to the mailing list.",
        ),
    ),
)

_FUJI: tuple[tuple[tuple[str, str], tuple[tuple[str, str], ...]], ...] = (
    (
        ("マナーに関するお願い①", "Manners, please (1)"),
        (
            (
                "先ヅモは厳禁です。前の方の打牌が完了する前に山に手を伸ばさないで下さい。"
                "上家が急かされたり、卓上に死角が出来ます。酷い場合は上がり放棄となります。",
                "Never draw before your turn: do not reach for the wall before the player before"
                " you has finished discarding. It hurries them and blocks the view of the table."
                " In serious cases the player may not win the hand (agari-houki).",
            ),
            (
                "他家の上がりや打牌の批判・解説",
                "No criticising or commenting on others' wins or discards.",
            ),
            (
                "打牌。ツモ牌の強打・引きヅモ・片手倒牌",
                "No slamming discards or drawn tiles, no sliding a drawn tile to the edge"
                " (hiki-zumo), no showing a hand one-handed.",
            ),
            ("伏せ牌はリーチ後であってもご遠慮下さい。", "No tiles face down, even after riichi."),
            ("手牌に関する発言", "No remarks about your hand."),
            (
                "放歌・大声・口笛・鼻歌・舌打ち",
                "No singing, shouting, whistling, humming or tutting.",
            ),
            ("三味線は禁止", "No misleading talk or gestures (shamisen)."),
            (
                "(まいったロン・失敗したロン・つかんだロン 等)",
                '(such as "oh no, ron", "that ron was a mistake", "I drew into a ron").',
            ),
            ("卓上からの助言は禁止", "No advice from beside the table."),
            ("お店からアウトは出せません。", "The house cannot make change (no 'out')."),
        ),
    ),
    (
        ("マナーに関するお願い②", "Manners, please (2)"),
        (
            ("捨て牌は6枚切りにして下さい。", "Discard six tiles to a row."),
            (
                "山はなるべくエレベーターラインより前に、右側を少し前にして出して下さい。"
                "また、牌山が短くなったら、中央に寄せて皆様が取り易い様にして下さい。",
                "Push the wall out past the elevator line, its right end a little further; when"
                " the wall gets short, move it to the middle so that everyone can reach it.",
            ),
            (
                "煙草を吸われないお客様もいらっしゃいます。置き煙草・くわえ煙草はご遠慮下さい。",
                "Some players do not smoke: do not leave a cigarette burning or play with one in"
                " your mouth.",
            ),
            (
                "点棒などやり取りする際は相手の手元にそっと置いて下さい。"
                "牌出し機の上に点棒などを置かないで下さい。",
                "Place point sticks gently by the player you pay; put nothing on the tile lift.",
            ),
            ("裏ドラは全員に開示して下さい。", "Show the ura dora to everyone."),
            (
                "ツモった牌はなるべく手牌に入れずに打牌して下さい。",
                "Where you can, discard a drawn tile without putting it into your hand first.",
            ),
            (
                "他店のルール・マナー・習慣を持ち込まない様お願いします。",
                "Leave other parlours' rules, manners and habits at the door.",
            ),
            (
                "マナーに関するお客様同士での注意はトラブルの元になりますので、絶対にしないで"
                "下さい。何かありましたら、スタッフまでお願い致します。",
                "Never correct another player's manners yourself: it starts trouble. Tell the"
                " staff instead.",
            ),
        ),
    ),
)

_BY_RULESET = {
    "makura-1.5": (_MAKURA,),
    "makura-1.3": (_MAKURA,),
    "fuji-sanma": _FUJI,
}


def ruleset_manners(ruleset_id: str) -> list[MannersPart]:
    """The manners of the club that plays ``ruleset_id``, in the active language (Japanese:
    the seed's words; any other: English); ``[]`` where the seed states none."""
    japanese = (get_language() or "").startswith("ja")
    pick = 0 if japanese else 1
    return [
        MannersPart(title[pick], [item[pick] for item in items])
        for title, items in _BY_RULESET.get(ruleset_id, ())
    ]
