"""The names of yaku in the reader's language: the ``mahjong`` package's ids,
the clubs' local yaku, and ``yakuman`` for one entered without its yaku. An id not listed
here is shown as it is."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

YAKU_LABELS: dict[str, Promise] = {
    "tsumo": _("Menzen tsumo"),
    "riichi": _("Riichi"),
    "open_riichi": _("Open riichi"),
    "ippatsu": _("Ippatsu"),
    "chankan": _("Chankan"),
    "rinshan": _("Rinshan kaihou"),
    "haitei": _("Haitei"),
    "houtei": _("Houtei"),
    "daburu_riichi": _("Double riichi"),
    "daburu_open_riichi": _("Double open riichi"),
    "renhou": _("Renhou"),
    "pinfu": _("Pinfu"),
    "tanyao": _("Tanyao"),
    "iipeiko": _("Iipeikou"),
    "haku": _("Yakuhai: haku"),
    "hatsu": _("Yakuhai: hatsu"),
    "chun": _("Yakuhai: chun"),
    "seat_wind_east": _("Seat wind: East"),
    "seat_wind_south": _("Seat wind: South"),
    "seat_wind_west": _("Seat wind: West"),
    "seat_wind_north": _("Seat wind: North"),
    "round_wind_east": _("Round wind: East"),
    "round_wind_south": _("Round wind: South"),
    "round_wind_west": _("Round wind: West"),
    "round_wind_north": _("Round wind: North"),
    "north_yakuhai": _("Yakuhai: North"),
    "sanshoku": _("Sanshoku doujun"),
    "ittsu": _("Ittsu"),
    "chantai": _("Chanta"),
    "honroto": _("Honroutou"),
    "toitoi": _("Toitoi"),
    "sanankou": _("Sanankou"),
    "sankantsu": _("Sankantsu"),
    "sanshoku_douko": _("Sanshoku doukou"),
    "chiitoitsu": _("Chiitoitsu"),
    "shosangen": _("Shousangen"),
    "honitsu": _("Honitsu"),
    "junchan": _("Junchan"),
    "ryanpeiko": _("Ryanpeikou"),
    "chinitsu": _("Chinitsu"),
    "sanpuu": _("Sanpuu"),
    "shousharin": _("Shousharin"),
    "dora": _("Dora"),
    "aka_dora": _("Red five"),
    "ura_dora": _("Ura dora"),
    "kokushi": _("Kokushi musou"),
    "daburu_kokushi": _("Kokushi musou, 13-sided wait"),
    "chuuren_poutou": _("Chuuren poutou"),
    "daburu_chuuren_poutou": _("Junsei chuuren poutou"),
    "suuankou": _("Suuankou"),
    "suuankou_tanki": _("Suuankou tanki"),
    "daisangen": _("Daisangen"),
    "shosuushi": _("Shousuushii"),
    "daisuushi": _("Daisuushii"),
    "ryuisou": _("Ryuuiisou"),
    "suukantsu": _("Suukantsu"),
    "tsuisou": _("Tsuuiisou"),
    "chinroto": _("Chinroutou"),
    "daisharin": _("Daisharin"),
    # Not the online service of the same name (天鳳): the yaku is 天和.
    "tenhou": pgettext_lazy("yaku", "Tenhou"),
    "chiihou": _("Chiihou"),
    "renhou_yakuman": _("Renhou (yakuman)"),
    "paarenchan": _("Paarenchan"),
    # Local yakuman and yaku of the seeds (004 L54, L57, L61; Makura §43).
    "manzu_honitsu": _("Manzu honitsu"),
    "suurenkou": _("Suurenkou"),
    "shiisanputa": _("13-futou"),
    "sanrenkou": _("Sanrenkou"),
    "yakuman": _("Yakuman"),
}


def yaku_label(name: str) -> str:
    """A yaku id's name in the reader's language (the id when it is not known)."""
    label = YAKU_LABELS.get(name)
    return str(label) if label is not None else name


FU_LABELS: dict[str, Promise] = {
    "base": _("base"),
    "penchan": _("edge wait"),
    "kanchan": _("closed wait"),
    "pair_wait": _("pair wait"),
    "valued_pair": _("valued pair"),
    "double_valued_pair": _("double-wind pair"),
    "tsumo": _("tsumo"),
    "hand_without_fu": _("open pinfu shape"),
    "closed_pon": _("closed pung"),
    "open_pon": _("open pung"),
    "closed_terminal_pon": _("closed terminal pung"),
    "open_terminal_pon": _("open terminal pung"),
    "closed_kan": _("closed kan"),
    "open_kan": _("open kan"),
    "closed_terminal_kan": _("closed terminal kan"),
    "open_terminal_kan": _("open terminal kan"),
}


def fu_label_of(reason: str) -> str:
    """What a fu item is, in the reader's language (the package's reason when unknown)."""
    label = FU_LABELS.get(reason)
    return str(label) if label is not None else reason
