"""NCRP Report 151 shielding of megavoltage treatment vaults (levels 1-3).

Level 1: primary barrier of one material with a single TVL. Level 2: concrete primary barrier with
TVL1 and TVLe, design goal in mSv/week. Level 3: concrete secondary barrier from head leakage and
patient scatter, combined by the report's two-source rule. The level-3 items of benchmark version 1.1
follow the seed's correction: they state the rule with the HVL of the leakage radiation (0.301 TVLe)
and an explicit U = 1 for leakage and patient scatter. Version 1.0 items state the rule the paper's
items stated (the TVL of the component that needs the thicker barrier) and leave U unstated.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import partial

from physbench.suites.medphys import ncrp151_tables as tables
import dataclasses

from physbench.suites.medphys.base import ErrorMode, Generator, LevelSpec, convention
from physbench.suites.medphys.ncrp151_chain import primary_chain, secondary_chain, single_tvl_chain
from physbench.suites.medphys.numbers import dec, fmt_dec, fmt_sci, sci
from physbench.suites.medphys.text import ask, bullets, table
from physbench.suites.medphys.worksheet import Sheet

PRECISION = "at least three significant figures"
FIELD_SIDES_CM = (20, 25, 30, 35, 40)  # largest square field at the isocentre; F = side²
PRIMARY_USE_DEN = 4  # NCRP 151 Sec. 3.3: U = 1/4 for each primary barrier of a conventional vault


@dataclass(frozen=True)
class PrimarySingleTvl:  # level 1
    beam: str  # "6 MV" or "Co-60"
    material: str  # lead, steel or concrete
    tvl_cm: float
    workload_gy_week: float
    use_den: int  # U = 1/use_den
    occupancy_den: int  # T = 1/occupancy_den
    location: str
    controlled: bool
    goal_sv_week: float
    distance_m: float  # target (source) to the point of interest


@dataclass(frozen=True)
class PrimaryConcrete:  # level 2
    energy_mv: int
    tvl1_cm: float
    tvle_cm: float
    workload_gy_week: float
    use_den: int
    occupancy_den: int
    location: str
    controlled: bool
    goal_msv_week: float
    distance_m: float


@dataclass(frozen=True)
class SecondaryBarrier:  # level 3
    energy_mv: int
    workload_gy_week: float
    primary_use_den: int  # the room's primary barriers (not used for leakage or patient scatter)
    occupancy_den: int
    location: str
    controlled: bool
    goal_msv_week: float
    distance_m: float  # isocentre to the point: leakage distance d_L and patient-to-point distance d_sec
    target_patient_m: float  # d_sca
    leakage_fraction: float
    field_area_cm2: float
    angle_deg: int
    scatter_fraction: float  # a(θ), NCRP 151 Table B.4
    leak_tvl1_cm: float  # NCRP 151 Table B.7
    leak_tvle_cm: float
    scatter_tvl_cm: float  # NCRP 151 Table B.5a
    # target to the point of interest when it is not the isocentre distance (IAEA SRS-47 examples)
    leakage_distance_m: float | None = convention(None)
    hvl_rule: str = convention("leakage")  # two-source HVL: "leakage" (NCRP 151, v1.1) or "thicker" (v1.0 items)
    use_factor_stated: bool = convention(True)  # v1.0 items left U = 1 for leakage and scatter unstated

    @property
    def leak_distance_m(self) -> float:
        """d_L: the target-to-point distance, the isocentre distance unless one is given."""
        return self.distance_m if self.leakage_distance_m is None else self.leakage_distance_m


HVL_RULES = ("leakage", "thicker")


def legacy_l3(p: SecondaryBarrier) -> SecondaryBarrier:
    """A level-3 draw as benchmark version 1.0 words and solves it."""
    return dataclasses.replace(p, hvl_rule="thicker", use_factor_stated=False)


def _solve(chain, p) -> float:  # type: ignore[no-untyped-def]
    return float(chain(p, Sheet()))


# --- sampling and plausibility ------------------------------------------------------------------

def _place(rng: random.Random) -> tuple[str, int, bool]:
    controlled = rng.random() < 0.25
    place, den = rng.choice(tables.CONTROLLED_PLACES if controlled else tables.UNCONTROLLED_PLACES)
    return place, den, controlled


def _goal_msv(controlled: bool) -> float:
    return tables.GOAL_CONTROLLED_MSV_WEEK if controlled else tables.GOAL_UNCONTROLLED_MSV_WEEK


def sample_l1(rng: random.Random) -> PrimarySingleTvl:
    if rng.random() < 0.2:
        beam, material = "Co-60", rng.choice(("concrete", "lead"))
        tvl, workload = tables.CO60_TVL_CM[material], rng.uniform(100.0, 400.0)
    else:
        mv = rng.choice(tuple(tables.PRIMARY_TVL_CONCRETE_CM))
        beam, material = f"{mv} MV", rng.choice(("lead", "steel"))
        tvl = tables.PRIMARY_TVL_LEAD_CM[mv] if material == "lead" else tables.PRIMARY_TVL_STEEL_CM[mv]
        workload = rng.uniform(200.0, 700.0)
    place, den, controlled = _place(rng)
    return PrimarySingleTvl(beam, material, tvl, dec(workload, 0), PRIMARY_USE_DEN, den, place, controlled,
                            sci(_goal_msv(controlled) * 1e-3, 2), dec(rng.uniform(4.0, 8.0), 1))


def _table_tvl_l1(p: PrimarySingleTvl) -> float | None:
    if p.beam == "Co-60":
        return tables.CO60_TVL_CM.get(p.material)
    mv = int(p.beam.split()[0]) if p.beam.endswith(" MV") and p.beam.split()[0].isdigit() else None
    if mv not in tables.PRIMARY_TVL_CONCRETE_CM:
        return None
    return {"lead": tables.PRIMARY_TVL_LEAD_CM, "steel": tables.PRIMARY_TVL_STEEL_CM}.get(p.material, {}).get(mv)


def _common_violations(p: PrimarySingleTvl | PrimaryConcrete | SecondaryBarrier, goal_msv: float) -> list[str]:
    """Place, occupancy, design goal and workload rules shared by the three levels."""
    out = []
    places = dict(tables.CONTROLLED_PLACES if p.controlled else tables.UNCONTROLLED_PLACES)
    if places.get(p.location) != p.occupancy_den:
        out.append("occupancy factor does not match NCRP 151 Table B.1 for this place")
    if abs(goal_msv - _goal_msv(p.controlled)) > 1e-12:
        out.append("design goal is not the NCRP 151 weekly goal for this kind of area")
    if not 50.0 <= p.workload_gy_week <= 1000.0:
        out.append("workload outside 50-1000 Gy/week")
    return out


def violations_l1(p: PrimarySingleTvl) -> list[str]:
    out = _common_violations(p, p.goal_sv_week * 1e3)
    if _table_tvl_l1(p) != p.tvl_cm:
        out.append("TVL is not the NCRP 151 Table B.2 value for this beam and material")
    if p.use_den != PRIMARY_USE_DEN or not 3.0 <= p.distance_m <= 10.0:
        out.append("use factor or distance outside the primary-barrier ranges")
    n = tables.tvl_count(tables.primary_transmission(p.goal_sv_week, p.distance_m, p.workload_gy_week,
                                                     1 / p.use_den, 1 / p.occupancy_den))
    if not 1.0 <= n <= 7.0:
        out.append("number of TVLs outside 1-7")
    return out


def sample_l2(rng: random.Random) -> PrimaryConcrete:
    mv = rng.choice(tuple(tables.PRIMARY_TVL_CONCRETE_CM))
    tvl1, tvle = tables.PRIMARY_TVL_CONCRETE_CM[mv]
    place, den, controlled = _place(rng)
    return PrimaryConcrete(mv, tvl1, tvle, dec(rng.uniform(200.0, 800.0), 0), PRIMARY_USE_DEN, den, place,
                           controlled, _goal_msv(controlled), dec(rng.uniform(4.0, 8.0), 1))


def violations_l2(p: PrimaryConcrete) -> list[str]:
    out = _common_violations(p, p.goal_msv_week)
    if tables.PRIMARY_TVL_CONCRETE_CM.get(p.energy_mv) != (p.tvl1_cm, p.tvle_cm):
        out.append("TVLs are not the NCRP 151 Table B.2 values for this energy")
    if p.use_den != PRIMARY_USE_DEN or not 3.0 <= p.distance_m <= 10.0:
        out.append("use factor or distance outside the primary-barrier ranges")
    n = tables.tvl_count(tables.primary_transmission(p.goal_msv_week * 1e-3, p.distance_m, p.workload_gy_week,
                                                     1 / p.use_den, 1 / p.occupancy_den))
    if not 1.05 <= n <= 7.0:
        out.append("number of TVLs outside 1.05-7")
    return out


def sample_l3(rng: random.Random) -> SecondaryBarrier:
    mv = rng.choice(tables.SECONDARY_ENERGIES_MV)
    angle = rng.choice(tables.SECONDARY_ANGLES_DEG)
    place, den, controlled = _place(rng)
    tvl1, tvle = tables.LEAKAGE_TVL_CONCRETE_CM[mv]
    side = rng.choice(FIELD_SIDES_CM)
    return SecondaryBarrier(mv, dec(rng.uniform(200.0, 700.0), 0), PRIMARY_USE_DEN, den, place, controlled,
                            _goal_msv(controlled), dec(rng.uniform(3.0, 7.0), 1), 1.0, tables.LEAKAGE_FRACTION,
                            float(side * side), angle, tables.SCATTER_FRACTION[angle][mv], tvl1, tvle,
                            tables.SCATTER_TVL_CONCRETE_CM[angle][mv])


def components_l3(p: SecondaryBarrier) -> tuple[float, float, float, float]:
    """(n_L, t_L, n_PS, t_PS) of a level-3 draw, exact."""
    p_sv, t = p.goal_msv_week * 1e-3, 1 / p.occupancy_den
    n_l = tables.tvl_count(tables.leakage_transmission(p_sv, p.leak_distance_m, p.workload_gy_week, t,
                                                       p.leakage_fraction))
    n_s = tables.tvl_count(tables.patient_scatter_transmission(p_sv, p.target_patient_m, p.distance_m,
                                                               p.scatter_fraction, p.workload_gy_week, t,
                                                               p.field_area_cm2))
    return (n_l, tables.thickness(n_l, p.leak_tvl1_cm, p.leak_tvle_cm), n_s,
            tables.thickness(n_s, p.scatter_tvl_cm, p.scatter_tvl_cm))


def violations_l3(p: SecondaryBarrier) -> list[str]:
    out = _common_violations(p, p.goal_msv_week)
    if (p.energy_mv not in tables.SECONDARY_ENERGIES_MV or p.angle_deg not in tables.SECONDARY_ANGLES_DEG
            or p.scatter_fraction != tables.SCATTER_FRACTION[p.angle_deg][p.energy_mv]
            or (p.leak_tvl1_cm, p.leak_tvle_cm) != tables.LEAKAGE_TVL_CONCRETE_CM[p.energy_mv]
            or p.scatter_tvl_cm != tables.SCATTER_TVL_CONCRETE_CM[p.angle_deg][p.energy_mv]):
        return out + ["energy, angle or data are not NCRP 151 Tables B.4, B.5a and B.7 values"]
    if p.target_patient_m != 1.0 or p.leakage_fraction != tables.LEAKAGE_FRACTION:
        out.append("isocentre not 1 m from the target, or leakage not 0.1 %")
    if not 400.0 <= p.field_area_cm2 <= 1600.0 or not 2.5 <= p.distance_m <= 8.0:
        out.append("field area outside 400-1600 cm² or distance outside 2.5-8 m")
    if abs(p.leak_distance_m - p.distance_m) > p.target_patient_m + 1e-9:
        out.append("leakage and isocentre distances differ by more than the target-to-isocentre distance")
    if p.hvl_rule not in HVL_RULES:
        return out + [f"two-source rule must be one of {', '.join(HVL_RULES)}"]
    n_l, t_l, n_s, t_s = components_l3(p)
    if n_l < 1.05 or n_s < 1.0:
        out.append("a component needs less than one TVL (not a secondary-barrier design case)")
    rule_tvl = p.leak_tvle_cm if p.hvl_rule == "leakage" or t_l >= t_s else p.scatter_tvl_cm
    if abs(abs(t_l - t_s) - rule_tvl) < 0.2:
        out.append("thickness difference within 0.2 cm of the rule's TVL (two-source rule ambiguous at the "
                   "shown precision)")
    return out


# --- prompts ---------------------------------------------------------------------------------

def _area(p: PrimarySingleTvl | PrimaryConcrete | SecondaryBarrier) -> str:
    return "controlled area" if p.controlled else "uncontrolled area"


def _t_text(den: int) -> str:
    return "1" if den == 1 else f"1/{den}"


def _point_lines(p: PrimarySingleTvl | PrimaryConcrete | SecondaryBarrier) -> list[str]:
    return [f"Point of interest: {p.location}, 0.3 m beyond the barrier ({_area(p)})",
            f"Occupancy factor T: {_t_text(p.occupancy_den)}"]


SV_GY = "For these photons take 1 Sv = 1 Gy."


def prompt_l1(p: PrimarySingleTvl) -> str:
    cobalt = p.beam == "Co-60"
    unit = "Co-60 teletherapy unit" if cobalt else f"{p.beam} linear accelerator"
    origin = "source" if cobalt else "target"
    return "\n\n".join([
        f"A primary barrier (struck by the useful beam) of a megavoltage treatment room is to be built of "
        f"{p.material}.",
        bullets([f"Treatment unit: {unit}",
                 f"Workload W: {fmt_dec(p.workload_gy_week, 0)} Gy/week at 1 m from the {origin}",
                 f"Use factor U of this barrier: {_t_text(p.use_den)}",
                 *_point_lines(p),
                 f"Shielding design goal P: {fmt_sci(p.goal_sv_week, 2)} Sv/week",
                 f"Distance from the {origin} to the point of interest d: {fmt_dec(p.distance_m, 1)} m",
                 f"Tenth-value layer of {p.material} for this beam (NCRP Report 151 Table B.2): "
                 f"{fmt_dec(p.tvl_cm, 1)} cm"]),
        f"Use this single TVL for every tenth-value layer of the barrier. {SV_GY}",
        ask(f"the required {p.material} thickness of this primary barrier", "cm", PRECISION),
    ])


def prompt_l2(p: PrimaryConcrete) -> str:
    return "\n\n".join([
        "A primary barrier (struck by the useful beam) of a linear-accelerator vault is to be built of ordinary "
        "concrete (density 2.35 g/cm³).",
        bullets([f"Treatment unit: {p.energy_mv} MV linear accelerator",
                 f"Workload W: {fmt_dec(p.workload_gy_week, 0)} Gy/week at the isocentre, 1 m from the target",
                 f"Use factor U of this barrier: {_t_text(p.use_den)}",
                 *_point_lines(p),
                 f"Shielding design goal P: {fmt_dec(p.goal_msv_week, 2)} mSv/week",
                 f"Distance from the target to the point of interest d: {fmt_dec(p.distance_m, 1)} m"]),
        "Tenth-value layers of concrete for the primary beam (NCRP Report 151 Table B.2):\n\n"
        + table(["Beam", "TVL1 (first), cm", "TVLe (equilibrium), cm"],
                [[f"{p.energy_mv} MV", fmt_dec(p.tvl1_cm, 0), fmt_dec(p.tvle_cm, 0)]]),
        SV_GY,
        ask("the required concrete thickness of this primary barrier", "cm", PRECISION),
    ])


def _distance_lines(p: SecondaryBarrier) -> list[str]:
    if p.leakage_distance_m is None:
        return [f"Distance from the isocentre to the point of interest: {fmt_dec(p.distance_m, 1)} m (use it as "
                f"the leakage distance d_L and as the patient-to-point distance d_sec)"]
    return [f"Distance from the isocentre (patient) to the point of interest d_sec: {fmt_dec(p.distance_m, 1)} m",
            f"Distance from the target to the point of interest, the leakage distance d_L: "
            f"{fmt_dec(p.leakage_distance_m, 1)} m"]


def _method_l3(p: SecondaryBarrier) -> str:
    """The method paragraph: v1.1 (NCRP 151's rule, U stated) or the v1.0 items' wording."""
    if p.hvl_rule == "thicker":
        u = (" with a use factor U = 1 for both leakage and patient scatter" if p.use_factor_stated else "")
        return ("Follow the NCRP Report 151 method: calculate the leakage barrier and the patient-scatter barrier "
                f"separately{u}, then combine them with the report's two-source rule. For that rule, use the TVL "
                "of the component that needs the thicker barrier (TVLe for leakage), and take one HVL as 0.301 of "
                f"that TVL. {SV_GY}")
    u = ", with a use factor U = 1 for both leakage and patient scatter" if p.use_factor_stated else ""
    return ("Follow the NCRP Report 151 method: calculate the leakage barrier and the patient-scatter barrier "
            f"separately{u}. Then apply the report's two-source rule: if the two thicknesses differ by one leakage "
            "TVLe or more, the larger thickness is sufficient; if they differ by less than one leakage TVLe, add "
            f"one HVL of the leakage radiation, taken as 0.301 × TVLe (leakage), to the larger thickness. {SV_GY}")


def prompt_l3(p: SecondaryBarrier) -> str:
    data = table(["Quantity (NCRP Report 151)", "Value"], [
        [f"Patient-scatter fraction a at {p.angle_deg}° (Table B.4; at 1 m from the patient, for a 400 cm² field)",
         fmt_sci(p.scatter_fraction, 3)],
        ["Leakage TVL1 (first) in concrete (Table B.7)", f"{fmt_dec(p.leak_tvl1_cm, 0)} cm"],
        ["Leakage TVLe (equilibrium) in concrete (Table B.7)", f"{fmt_dec(p.leak_tvle_cm, 0)} cm"],
        [f"TVL of patient-scattered radiation at {p.angle_deg}° in concrete (Table B.5a)",
         f"{fmt_dec(p.scatter_tvl_cm, 0)} cm"],
    ])
    return "\n\n".join([
        "A secondary barrier (outside the primary beam) of a linear-accelerator vault is to be built of ordinary "
        "concrete (density 2.35 g/cm³). The machine is used for conventional (non-IMRT) treatments.",
        bullets([f"Treatment unit: {p.energy_mv} MV linear accelerator",
                 f"Workload W: {fmt_dec(p.workload_gy_week, 0)} Gy/week at the isocentre, 1 m from the target",
                 f"Use factor of the room's primary barriers: {_t_text(p.primary_use_den)}",
                 *_point_lines(p),
                 f"Shielding design goal P: {fmt_dec(p.goal_msv_week, 2)} mSv/week",
                 f"Head leakage: {fmt_dec(p.leakage_fraction * 100, 1)}% of the useful-beam dose, at 1 m from "
                 "the target",
                 *_distance_lines(p),
                 f"Target-to-patient (isocentre) distance d_sca: {fmt_dec(p.target_patient_m, 1)} m",
                 f"Largest field area at the patient F: {fmt_dec(p.field_area_cm2, 0)} cm²",
                 f"Scattering angle from the patient to the point of interest: {p.angle_deg}°"]),
        "Data for this case:\n\n" + data,
        _method_l3(p),
        ask("the required concrete thickness of this secondary barrier", "cm", PRECISION),
    ])


# --- error modes (Table 6 of seed 000) ---------------------------------------------------------------

_CHAINS = {1: single_tvl_chain, 2: primary_chain, 3: secondary_chain}


def _mode_answer(mode: str, level: int, p: object) -> float:
    return float(_CHAINS[level](p, Sheet(), mode))


def _mode(name: str, description: str, category: str, levels: tuple[int, ...]) -> ErrorMode:
    return ErrorMode(name, description, category, levels, partial(_mode_answer, name))  # type: ignore[arg-type]


ERROR_MODES = (
    _mode("distance_not_squared", "distance used instead of distance squared in the transmission", "conceptual",
          (1, 2, 3)),
    _mode("natural_log", "natural logarithm used for the number of TVLs", "conceptual", (1, 2, 3)),
    _mode("t_omitted", "occupancy factor T omitted (n/a when T = 1)", "conceptual", (1, 2, 3)),
    _mode("u_omitted", "use factor U omitted for the primary barrier", "conceptual", (1, 2)),
    _mode("goal_msv_as_sv", "design goal in mSv/week used as Sv/week", "unit", (2, 3)),
    _mode("tvle_first", "TVLe used for the first TVL as well", "conceptual", (2, 3)),
    _mode("leak_fraction_omitted", "10^-3 leakage fraction omitted from B_L", "conceptual", (3,)),
    _mode("f400_omitted", "field-size factor F/400 omitted from B_PS", "conceptual", (3,)),
    _mode("no_added_hvl", "larger thickness used without the added HVL when the components differ by less than "
          "one TVL", "conceptual", (3,)),
    _mode("u_quarter", "primary use factor U = 1/4 applied to leakage and patient scatter", "conceptual", (3,)),
)

GENERATOR = Generator(
    name="ncrp151",
    title="Treatment-vault barrier",
    document="NCRP Report 151",
    band=0.01,
    levels={
        1: LevelSpec(1, PrimarySingleTvl, sample_l1, violations_l1, partial(_solve, single_tvl_chain),
                     lambda p: "cm", lambda p: f"the required {p.material} thickness of the primary barrier",
                     prompt_l1, single_tvl_chain),
        2: LevelSpec(2, PrimaryConcrete, sample_l2, violations_l2, partial(_solve, primary_chain), lambda p: "cm",
                     lambda p: "the required concrete thickness of the primary barrier", prompt_l2, primary_chain),
        3: LevelSpec(3, SecondaryBarrier, sample_l3, violations_l3, partial(_solve, secondary_chain),
                     lambda p: "cm", lambda p: "the required concrete thickness of the secondary barrier",
                     prompt_l3, secondary_chain, legacy=legacy_l3),
    },
    error_modes=ERROR_MODES,
    checking=True,
)
