import Foundation
import Journeys
import ProcessWorkers
import Synchronization

/// One name of one place in the gazetteer.
public struct GazetteerEntry: Sendable, Hashable {
    public var name: String
    /// Whether it matched the place's own name (a town's, or a locality's below the towns'
    /// population floor), not another name it is known by.
    public var isPrimaryName: Bool
    /// ISO 3166 country code ("GB") and GeoNames region code ("ENG", "MA").
    public var country: String
    public var region: String
    public var population: Int
    public var coordinate: Coordinate
}

/// The offline gazetteer `scripts/setup` extracts from GeoNames (`scripts/gazetteer.py`): places
/// of 500 people or more, localities below that from GeoNames' postal codes (found by name only:
/// they never name a point or a town along a route), countries and regions. The places file is sorted by ``PlaceName/key``
/// and memory-mapped: a name is found by binary search, nothing is read into memory up front.
public final class Gazetteer: Sendable {
    let places: Data
    /// Country codes by every key a country is known by ("uk" → GB).
    let countriesByKey: [String: [String]]
    let countryNames: [String: String]
    /// (country, region) by key ("massachusetts", "ma" → US/MA).
    let regionsByKey: [String: [Region]]
    let regionNames: [Region: String]
    /// Where every place is, read on the first reverse lookup (`nearest(to:)`).
    private let locations = Mutex<Locations?>(nil)

    struct Region: Hashable, Sendable {
        var country: String
        var code: String
    }

    public init(directory: URL) throws(JourneyError) {
        let placesFile = directory.appendingPathComponent("places.tsv")
        guard FileManager.default.fileExists(atPath: placesFile.path) else {
            throw JourneyError(.gazetteerMissing, "The offline gazetteer is not installed (there is no \(placesFile.path)) — run scripts/setup, which extracts it there, or set \(JourneyServicesConfiguration.nominatimVariable) to a Nominatim server.")
        }
        do {
            places = try Data(contentsOf: placesFile, options: .alwaysMapped)
            let countries = try String(contentsOf: directory.appendingPathComponent("countries.tsv"), encoding: .utf8)
            let regions = try String(contentsOf: directory.appendingPathComponent("regions.tsv"), encoding: .utf8)
            var countriesByKey: [String: [String]] = [:], countryNames: [String: String] = [:]
            for fields in Self.rows(countries) where fields.count == 3 {
                countryNames[fields[0]] = fields[1]
                for key in fields[2].split(separator: "|") { countriesByKey[String(key), default: []].append(fields[0]) }
            }
            var regionsByKey: [String: [Region]] = [:], regionNames: [Region: String] = [:]
            for fields in Self.rows(regions) where fields.count == 4 {
                let region = Region(country: fields[0], code: fields[1])
                regionNames[region] = fields[2]
                for key in fields[3].split(separator: "|") { regionsByKey[String(key), default: []].append(region) }
            }
            (self.countriesByKey, self.countryNames, self.regionsByKey, self.regionNames) = (countriesByKey, countryNames, regionsByKey, regionNames)
        } catch {
            throw JourneyError(.gazetteerMissing, "The offline gazetteer cannot be read at \(directory.path) (\(error.localizedDescription)) — run scripts/setup, which extracts it there, or set \(JourneyServicesConfiguration.nominatimVariable) to a Nominatim server.")
        }
        guard !places.isEmpty, places.last == UInt8(ascii: "\n") else {
            throw JourneyError(.gazetteerMissing, "The offline gazetteer at \(placesFile.path) is empty or cut short — run scripts/setup again.")
        }
    }

    private static func rows(_ text: String) -> [[String]] {
        text.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }

    /// Where `scripts/setup` puts it: `$STORYVOICE_MODELS_DIR/gazetteer`, else `.models/gazetteer`
    /// in the checkout found from the current directory or the executable.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let models = environment["STORYVOICE_MODELS_DIR"], !models.isEmpty {
            return URL(fileURLWithPath: (models as NSString).expandingTildeInPath).appendingPathComponent("gazetteer")
        }
        let relative = ".models/gazetteer"
        let root = ProjectDirectory.locate(containing: relative + "/places.tsv") ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        return root.appendingPathComponent(relative)
    }

    /// Every place called `key` (a ``PlaceName/key``), most populous first.
    public func entries(forKey key: String) -> [GazetteerEntry] {
        let target = Array(key.utf8)
        guard !target.isEmpty else { return [] }
        return places.withUnsafeBytes { raw -> [GazetteerEntry] in
            let bytes = raw.bindMemory(to: UInt8.self)
            let count = bytes.count
            // The start of the first line at or after `position`.
            func lineStart(_ position: Int) -> Int {
                guard position > 0 else { return 0 }
                var index = position - 1
                while index < count, bytes[index] != 10 { index += 1 }
                return index + 1
            }
            // The line's key (up to its first tab) against the target, as bytes: -1, 0 or 1.
            func compare(lineAt start: Int) -> Int {
                var index = start, offset = 0
                while true {
                    let byte = index < count ? bytes[index] : 9
                    let ended = byte == 9 || byte == 10
                    if offset == target.count { return ended ? 0 : 1 }
                    if ended { return -1 }
                    if byte != target[offset] { return byte < target[offset] ? -1 : 1 }
                    index += 1
                    offset += 1
                }
            }
            var low = 0, high = count
            while low < high {
                let middle = (low + high) / 2
                let start = lineStart(middle)
                if start < count, compare(lineAt: start) < 0 { low = middle + 1 } else { high = middle }
            }
            var entries: [GazetteerEntry] = []
            var start = lineStart(low)
            while start < count, compare(lineAt: start) == 0 {
                var end = start
                while end < count, bytes[end] != 10 { end += 1 }
                if let entry = Self.entry(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)) { entries.append(entry) }
                start = end + 1
            }
            return entries
        }
    }

    // MARK: Reverse lookup

    /// The place a point is best told by: the one whose reach holds it most surely, a place's
    /// reach growing with its people (2 km for a village, up to 25 km for a city). So a point in
    /// a city's suburb is the city, not the village of 600 a kilometre off; a point farther than
    /// three reaches from any place has none (nil). `distance`: metres from the place's centre.
    public func nearest(to coordinate: Coordinate) -> (entry: GazetteerEntry, distance: Double, isWithin: Bool)? {
        let locations = locations.withLock { cached in
            if let cached { return cached }
            let built = Locations(places)
            cached = built
            return built
        }
        guard let best = locations.best(for: coordinate) else { return nil }
        let line = places.withUnsafeBytes { raw -> String in
            let bytes = raw.bindMemory(to: UInt8.self)
            var end = best.offset
            while end < bytes.count, bytes[end] != 10 { end += 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[best.offset..<end]), as: UTF8.self)
        }
        guard let entry = Self.entry(line) else { return nil }
        let distance = GreatCircle.distance(coordinate, entry.coordinate)
        let reach = Locations.reach(population: entry.population)
        guard distance <= 3 * reach else { return nil }
        return (entry, distance, distance <= reach)
    }

    /// The towns a route passes, in order along it: the most populous places within a corridor
    /// of the line (6 % of its length, 3 to 15 km either side), spread out (no two within an
    /// eighth of the way of each other), away from both ends and not named as either, at most
    /// `limit`. For the route's map, so a line on a blank panel reads as a trip.
    public func towns(along line: [Coordinate], excluding names: Set<String> = [], limit: Int = 5) -> [GazetteerEntry] {
        guard line.count >= 2 else { return [] }
        let locations = locations.withLock { cached in
            if let cached { return cached }
            let built = Locations(places)
            cached = built
            return built
        }
        let near = locations.near(line)
        guard let length = near.length, length > 0 else { return [] }
        let corridor = min(15_000, max(3_000, length * 0.06))
        var chosen: [(offset: Int, fraction: Double)] = []
        for candidate in near.places.filter({ $0.distance <= corridor }).sorted(by: { $0.population > $1.population }) {
            guard chosen.count < limit else { break }
            let fraction = candidate.along / length
            guard (0.08...0.92).contains(fraction), chosen.allSatisfy({ abs($0.fraction - fraction) >= 0.125 }) else { continue }
            guard let entry = entry(at: candidate.offset), !names.contains(entry.name) else { continue }
            chosen.append((candidate.offset, fraction))
        }
        return chosen.sorted { $0.fraction < $1.fraction }.compactMap { entry(at: $0.offset) }
    }

    private func entry(at offset: Int) -> GazetteerEntry? {
        let line = places.withUnsafeBytes { raw -> String in
            let bytes = raw.bindMemory(to: UInt8.self)
            var end = offset
            while end < bytes.count, bytes[end] != 10 { end += 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<end]), as: UTF8.self)
        }
        return Self.entry(line)
    }

    /// Each place's own-name line: where it is, its people, and where its line starts, as flat
    /// arrays (235,000 places, 4 MB), scanned whole for each lookup (a few milliseconds).
    struct Locations: Sendable {
        var latitudes: [Float] = []
        var longitudes: [Float] = []
        var populations: [Int32] = []
        var offsets: [Int32] = []

        init(_ places: Data) {
            places.withUnsafeBytes { raw in
                let bytes = raw.bindMemory(to: UInt8.self)
                let count = bytes.count
                var start = 0
                var tabs = [Int](repeating: 0, count: 7)
                while start < count {
                    var index = start, found = 0
                    while index < count, bytes[index] != 10 {
                        if bytes[index] == 9, found < 7 { tabs[found] = index; found += 1 }
                        index += 1
                    }
                    // key \t kind \t name \t country \t region \t population \t lat \t lon
                    if found == 7, bytes[tabs[0] + 1] == UInt8(ascii: "n"),
                       let population = Self.number(bytes, tabs[4] + 1, tabs[5]),
                       let latitude = Self.number(bytes, tabs[5] + 1, tabs[6]), let longitude = Self.number(bytes, tabs[6] + 1, index) {
                        latitudes.append(Float(latitude))
                        longitudes.append(Float(longitude))
                        populations.append(Int32(clamping: Int(population)))
                        offsets.append(Int32(start))
                    }
                    start = index + 1
                }
            }
        }

        /// A decimal number in `bytes[from..<to]` ("-1.25596", "162100").
        private static func number(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> Double? {
            var index = from, negative = false, value = 0.0, scale = 0.0, digits = 0
            if index < to, bytes[index] == UInt8(ascii: "-") { negative = true; index += 1 }
            while index < to {
                let byte = bytes[index]
                if byte == UInt8(ascii: "."), scale == 0 {
                    scale = 1
                } else if byte >= 48, byte <= 57 {
                    value = value * 10 + Double(byte - 48)
                    if scale > 0 { scale *= 10 }
                    digits += 1
                } else {
                    return nil
                }
                index += 1
            }
            guard digits > 0 else { return nil }
            let result = scale > 0 ? value / scale : value
            return negative ? -result : result
        }

        /// The places within 15 km of `line` (its first 256 points evenly taken, enough for a
        /// map), each with its distance from the line and how far along the line it lies, and the
        /// line's length, in metres (equirectangular about the line's mean latitude).
        func near(_ line: [Coordinate]) -> (places: [(offset: Int, population: Int, distance: Double, along: Double)], length: Double?) {
            let step = max(1, (line.count + 255) / 256)
            var points = stride(from: 0, to: line.count, by: step).map { line[$0] }
            if let last = line.last, points.last != last { points.append(last) }
            let metresPerDegree = 111_195.0
            let shrink = cos(points.map(\.latitude).reduce(0, +) / Double(points.count) * .pi / 180)
            let xy = points.map { ($0.longitude * metresPerDegree * shrink, $0.latitude * metresPerDegree) }
            var starts = [0.0]
            for index in 1..<xy.count { starts.append(starts[index - 1] + hypot(xy[index].0 - xy[index - 1].0, xy[index].1 - xy[index - 1].1)) }
            let margin = 15_000.0
            let minY = xy.map(\.1).min()! - margin, maxY = xy.map(\.1).max()! + margin
            let minX = xy.map(\.0).min()! - margin, maxX = xy.map(\.0).max()! + margin
            var found: [(offset: Int, population: Int, distance: Double, along: Double)] = []
            for index in latitudes.indices {
                let y = Double(latitudes[index]) * metresPerDegree
                guard y >= minY, y <= maxY else { continue }
                let x = Double(longitudes[index]) * metresPerDegree * shrink
                guard x >= minX, x <= maxX else { continue }
                var best = (distance: Double.infinity, along: 0.0)
                for segment in 1..<xy.count {
                    let (ax, ay) = xy[segment - 1], (bx, by) = xy[segment]
                    let dx = bx - ax, dy = by - ay, squared = dx * dx + dy * dy
                    let t = squared > 0 ? max(0, min(1, ((x - ax) * dx + (y - ay) * dy) / squared)) : 0
                    let distance = hypot(x - (ax + t * dx), y - (ay + t * dy))
                    if distance < best.distance { best = (distance, starts[segment - 1] + t * squared.squareRoot()) }
                }
                if best.distance <= margin { found.append((Int(offsets[index]), Int(populations[index]), best.distance, best.along)) }
            }
            return (found, starts.last)
        }

        /// Metres within which a place of `population` names the points around it.
        static func reach(population: Int) -> Double {
            min(25_000, max(2_000, 2_000 * (Double(max(1, population)) / 10_000).squareRoot()))
        }

        /// The place with the smallest distance over reach (an equirectangular distance: exact
        /// enough at these ranges, and cheap for 235,000 places).
        func best(for coordinate: Coordinate) -> (offset: Int, ratio: Double)? {
            let latitude = Float(coordinate.latitude), longitude = Float(coordinate.longitude)
            let metresPerDegree: Float = 111_195
            let shrink = Float(cos(coordinate.latitude * .pi / 180))
            var best: (index: Int, ratio: Float)?
            for index in latitudes.indices {
                let dy = (latitudes[index] - latitude) * metresPerDegree
                // Quick refusal: farther north or south than any reach.
                if abs(dy) > 75_000 { continue }
                var dl = abs(longitudes[index] - longitude)
                if dl > 180 { dl = 360 - dl }
                let dx = dl * metresPerDegree * shrink
                let ratio = (dx * dx + dy * dy).squareRoot() / Float(Self.reach(population: Int(populations[index])))
                if best.map({ ratio < $0.ratio }) ?? true { best = (index, ratio) }
            }
            return best.map { (Int(offsets[$0.index]), Double($0.ratio)) }
        }
    }

    /// key, kind, name, country, region, population, latitude, longitude.
    private static func entry(_ line: String) -> GazetteerEntry? {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
        guard fields.count == 8, let population = Int(fields[5]), let latitude = Double(fields[6]), let longitude = Double(fields[7]) else { return nil }
        return GazetteerEntry(
            name: String(fields[2]), isPrimaryName: fields[1] != "a", country: String(fields[3]), region: String(fields[4]),
            population: population, coordinate: Coordinate(latitude: latitude, longitude: longitude)
        )
    }

    /// "England, United Kingdom", "Massachusetts, United States", "Germany".
    public func area(of entry: GazetteerEntry) -> String {
        let country = countryNames[entry.country] ?? entry.country
        guard let region = regionNames[Region(country: entry.country, code: entry.region)] else { return country }
        return "\(region), \(country)"
    }

    /// Whether `qualifier` (a key) names a country or region, and whether `entry` lies in it.
    func qualifier(_ key: String) -> ((GazetteerEntry) -> Bool)? {
        let countries = countriesByKey[key] ?? [], regions = regionsByKey[key] ?? []
        guard !countries.isEmpty || !regions.isEmpty else { return nil }
        return { entry in
            countries.contains(entry.country) || regions.contains(Region(country: entry.country, code: entry.region))
        }
    }
}
