import Foundation
import Journeys

/// The offline ``Geocoder``: "lat,lon", or a town's name with optional country or region after
/// commas ("Oxford, UK", "Cambridge, MA", "Cambridge"), the most populous match winning (see `best`). Where
/// the first part names nothing (a street), the parts after it are tried as the town.
public struct GazetteerGeocoder: Geocoder {
    public let gazetteer: Gazetteer

    public init(gazetteer: Gazetteer) {
        self.gazetteer = gazetteer
    }

    public func place(for query: String) async throws -> Place {
        try resolve(query)
    }

    public func resolve(_ query: String) throws(JourneyError) -> Place {
        if let coordinate = Coordinate(text: query) { return Self.named(coordinate, by: gazetteer) }
        let parts = query.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        for (index, part) in parts.enumerated() {
            // A country or region after the name qualifies it; it is never the place itself
            // ("Headington, UK" is not the village of Uk in Russia).
            if index > 0, gazetteer.qualifier(PlaceName.key(part)) != nil { continue }
            let candidates = gazetteer.entries(forKey: PlaceName.key(part))
            guard !candidates.isEmpty else { continue }
            var matching = candidates
            for qualifier in parts[(index + 1)...] {
                if let within = gazetteer.qualifier(PlaceName.key(qualifier)) {
                    matching = matching.filter(within)
                } else if let town = Self.best(gazetteer.entries(forKey: PlaceName.key(qualifier))) {
                    // A town named after the place ("Cambridge, Boston"): the place near it, the
                    // nearest first among equals ("Botley, Oxford": the village by Oxford, not
                    // the one 45 km away; localities have no population to tell them apart).
                    matching = matching.filter { GreatCircle.distance($0.coordinate, town.coordinate) <= Self.nearTown }
                        .sorted { GreatCircle.distance($0.coordinate, town.coordinate) < GreatCircle.distance($1.coordinate, town.coordinate) }
                } else {
                    throw JourneyError.unknownPlace(query, hint: "“\(qualifier)” is neither a country, a region nor a town this server knows; leave it out, or name the country or the nearest town")
                }
            }
            guard let best = Self.best(matching) else {
                let somewhere = candidates.prefix(3).map { "\($0.name), \(gazetteer.area(of: $0))" }.joined(separator: "; ")
                throw JourneyError.unknownPlace(query, hint: "this server knows \(part) only elsewhere (\(somewhere))")
            }
            return Place(name: best.name, coordinate: best.coordinate, label: label(best), alternatives: alternatives(to: best, among: matching))
        }
        throw JourneyError.unknownPlace(query, hint: "this server knows towns, villages and suburbs by name, not streets or addresses: name the nearest town, or give “latitude,longitude” (Use my location)")
    }

    public func towns(along line: [Coordinate], from start: Place, to end: Place) -> [Place] {
        Self.towns(along: line, from: start, to: end, in: gazetteer)
    }

    /// The gazetteer's towns along `line` as places, the ends' own names left out.
    static func towns(along line: [Coordinate], from start: Place, to end: Place, in gazetteer: Gazetteer) -> [Place] {
        gazetteer.towns(along: line, excluding: [start.name, end.name]).map {
            Place(name: $0.name, coordinate: $0.coordinate, label: "\($0.name), \(gazetteer.area(of: $0))")
        }
    }

    /// "Cambridge, Massachusetts, United States": a place's name with where it is, which is also
    /// words that find it again.
    func label(_ entry: GazetteerEntry) -> String {
        "\(entry.name), \(gazetteer.area(of: entry))"
    }

    /// The other places the words may mean, as their labels: the most populous few with at least
    /// a twentieth of the chosen one's weight ("Oxford" offers Oxford, Mississippi, not every
    /// hamlet called Oxford), by their own names only (GeoNames lists Newton, Massachusetts, as
    /// also called Cambridge), one per label (two in one region could not be told apart).
    func alternatives(to chosen: GazetteerEntry, among entries: [GazetteerEntry], limit: Int = 3) -> [String] {
        let chosenLabel = label(chosen)
        var labels: [String] = []
        for entry in entries.sorted(by: { Self.weight($0) > Self.weight($1) }) where entry.isPrimaryName && Self.weight(entry) >= Self.weight(chosen) / 20 {
            let label = label(entry)
            guard label != chosenLabel, !labels.contains(label) else { continue }
            labels.append(label)
            if labels.count == limit { break }
        }
        return labels
    }

    /// How near a place must be to the town named after it (metres).
    static let nearTown = 50_000.0

    /// A point given as "lat,lon" (a phone's location), told by the place it is in or near: a
    /// story must not read "51.75900, -1.24000" aloud. Far from any place, it keeps its
    /// coordinates as its name (the storyteller then says where it lies: `TripWords`).
    public static func named(_ coordinate: Coordinate, by gazetteer: Gazetteer) -> Place {
        guard let (entry, distance, isWithin) = gazetteer.nearest(to: coordinate) else { return Place(name: coordinate.text, coordinate: coordinate) }
        let name = isWithin ? entry.name : "near \(entry.name)"
        let away = isWithin ? "" : ", \(TripWords.distance(distance)) \(TripWords.direction(from: entry.coordinate, to: coordinate)) of it"
        return Place(name: name, coordinate: coordinate, label: "\(coordinate.text): \(entry.name), \(gazetteer.area(of: entry))\(away)")
    }

    /// The most populous, a match on another name counting a tenth of its people: GeoNames lists
    /// stray other names ("Venice" for Dayton, Ohio), yet Köln is still the "Cologne" people mean.
    static func best(_ entries: [GazetteerEntry]) -> GazetteerEntry? {
        var best: GazetteerEntry?
        for entry in entries where best.map({ weight(entry) > weight($0) }) ?? true { best = entry }
        return best
    }

    static func weight(_ entry: GazetteerEntry) -> Double { Double(entry.population) * (entry.isPrimaryName ? 1 : 0.1) }
}

/// Another geocoder (Nominatim) whose "lat,lon" places are named by the offline gazetteer when
/// it is installed: the other geocoder reads coordinates without asking, so they would keep
/// their numbers as their name.
public struct CoordinateNamingGeocoder: Geocoder {
    public let base: any Geocoder
    public let gazetteer: @Sendable () -> Gazetteer?

    public init(base: any Geocoder, gazetteer: @escaping @Sendable () -> Gazetteer?) {
        self.base = base
        self.gazetteer = gazetteer
    }

    public func place(for query: String) async throws -> Place {
        if let coordinate = Coordinate(text: query), let gazetteer = gazetteer() {
            return GazetteerGeocoder.named(coordinate, by: gazetteer)
        }
        return try await base.place(for: query)
    }

    public func towns(along line: [Coordinate], from start: Place, to end: Place) -> [Place] {
        gazetteer().map { GazetteerGeocoder.towns(along: line, from: start, to: end, in: $0) } ?? []
    }
}
