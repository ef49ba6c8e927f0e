import Foundation
import Journeys
import ProcessWorkers

/// One name of one place in the gazetteer.
public struct GazetteerEntry: Sendable, Hashable {
    public var name: String
    /// Whether it matched the place's own name, not another name it is known by.
    public var isPrimaryName: Bool
    /// ISO 3166 country code ("GB") and GeoNames region code ("ENG", "MA").
    public var country: String
    public var region: String
    public var population: Int
    public var coordinate: Coordinate
}

/// The offline gazetteer `scripts/setup` extracts from GeoNames (`scripts/gazetteer.py`): places
/// of 500 people or more, countries and regions. The places file is sorted by ``PlaceName/key``
/// and memory-mapped: a name is found by binary search, nothing is read into memory up front.
public final class Gazetteer: Sendable {
    let places: Data
    /// Country codes by every key a country is known by ("uk" → GB).
    let countriesByKey: [String: [String]]
    let countryNames: [String: String]
    /// (country, region) by key ("massachusetts", "ma" → US/MA).
    let regionsByKey: [String: [Region]]
    let regionNames: [Region: String]

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

    /// key, kind, name, country, region, population, latitude, longitude.
    private static func entry(_ line: String) -> GazetteerEntry? {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
        guard fields.count == 8, let population = Int(fields[5]), let latitude = Double(fields[6]), let longitude = Double(fields[7]) else { return nil }
        return GazetteerEntry(
            name: String(fields[2]), isPrimaryName: fields[1] == "n", country: String(fields[3]), region: String(fields[4]),
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
