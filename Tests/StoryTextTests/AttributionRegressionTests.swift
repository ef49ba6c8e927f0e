import Foundation
import StoryModel
import StoryText
import Testing

/// Scores the analyzer on a scholar-annotated novel from the Project Dialogism Novel Corpus the
/// way `shared/eval/score_attribution.py` does: quotes aligned one-to-one at IoU >= 0.5, system
/// characters mapped to gold characters by majority vote of their normalised names.
enum PDNCFixture {
    /// `<repo>/../shared/eval/pdnc-dev`, found from this file's path (works in clones too).
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/eval/pdnc-dev")

    static func folder(_ novel: String) -> URL { root.appendingPathComponent(novel) }

    static func available(_ novel: String) -> Bool {
        FileManager.default.fileExists(atPath: folder(novel).appendingPathComponent("novel_text.txt").path)
    }

    struct GoldQuote { var start: Int; var end: Int; var speaker: String; var scorable: Bool }

    /// RFC 4180 CSV: quoted fields may hold commas, doubled quotes and newlines.
    static func parseCSV(_ text: String) -> [[String: String]] {
        var rows: [[String]] = [], row: [String] = [], field = "", inQuotes = false
        var iterator = Array(text.unicodeScalars).makeIterator()
        var pending: Unicode.Scalar? = nil
        while let c = pending ?? iterator.next() {
            pending = nil
            if inQuotes {
                if c == "\"" {
                    if let next = iterator.next() { if next == "\"" { field.unicodeScalars.append("\"") } else { inQuotes = false; pending = next } }
                    else { inQuotes = false }
                } else { field.unicodeScalars.append(c) }
            } else if c == "\"" { inQuotes = true }
            else if c == "," { row.append(field); field = "" }
            else if c == "\n" { row.append(field); rows.append(row); row = []; field = "" }
            else if c != "\r" { field.unicodeScalars.append(c) }
        }
        if !field.isEmpty || !row.isEmpty { row.append(field); rows.append(row) }
        guard let header = rows.first else { return [] }
        return rows.dropFirst().filter { $0.count == header.count }.map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
    }

    /// The string literals of a Python set or list repr: `{'Emma', "Anne's"}`.
    static func pythonStrings(_ text: String) -> [String] {
        var result: [String] = [], current = "", quote: Swift.Character? = nil
        for c in text {
            if let q = quote { if c == q { result.append(current); current = ""; quote = nil } else { current.append(c) } }
            else if c == "'" || c == "\"" { quote = c }
        }
        return result
    }

    static func normalise(_ name: String) -> String {
        var mapped = String.UnicodeScalarView()
        for scalar in name.lowercased().unicodeScalars {
            let keep = scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))
            mapped.append(keep ? scalar : " ")
        }
        let words = String(mapped).split(separator: " ")
        // "The Hatter" and "Hatter" name the same character.
        return (words.first == "the" ? words.dropFirst() : words[...]).joined(separator: " ")
    }

    static let quoteMarks: Set<Unicode.Scalar> = [" ", "\t", "\r", "\n", "\"", "'", "`", "\u{201C}", "\u{201D}", "\u{2018}", "\u{2019}", "\u{AB}", "\u{BB}"]

    static func trim(_ scalars: [Unicode.Scalar], _ a: Int, _ b: Int) -> (Int, Int) {
        var a = a, b = b
        while a < b, quoteMarks.contains(scalars[a]) { a += 1 }
        while b > a, quoteMarks.contains(scalars[b - 1]) { b -= 1 }
        return (a, b)
    }

    /// Attribution accuracy (end to end) and quote F1 of `analysis` on `novel`.
    static func score(novel: String, text: String, analysis: StoryAnalysis) throws -> (attribution: Double, quoteF1: Double, characterRecall: Double) {
        let scalars = Array(text.unicodeScalars)
        // Gold spans count UTF-8 bytes; map them to scalar offsets.
        var scalarAtByte: [Int: Int] = [:]
        var byte = 0
        for (index, scalar) in scalars.enumerated() { scalarAtByte[byte] = index; byte += String(scalar).utf8.count }
        scalarAtByte[byte] = scalars.count

        var aliasOwners: [String: Set<String>] = [:]
        var idOfName: [String: String] = [:]
        var mainName: [String: String] = [:]
        let characterCSV = try String(contentsOf: folder(novel).appendingPathComponent("character_info.csv"), encoding: .utf8)
        for row in parseCSV(characterCSV) {
            let id = row["Character ID"] ?? ""
            let names = Set(pythonStrings(row["Aliases"] ?? "") + [row["Main Name"] ?? ""]).map { $0.trimmingCharacters(in: .whitespaces) }
            for name in names { aliasOwners[normalise(name), default: []].insert(id); idOfName[name] = id }
            mainName[id] = normalise(row["Main Name"] ?? "")
        }
        var gold: [GoldQuote] = []
        let quoteCSV = try String(contentsOf: folder(novel).appendingPathComponent("quotation_info.csv"), encoding: .utf8)
        for row in parseCSV(quoteCSV) {
            let speaker = (row["speaker"] ?? "").trimmingCharacters(in: .whitespaces)
            let numbers = (row["quoteByteSpans"] ?? "").split { !$0.isNumber }.compactMap { Int($0) }
            for pair in stride(from: 0, to: numbers.count - 1, by: 2) {
                guard let a = scalarAtByte[numbers[pair]], let b = scalarAtByte[numbers[pair + 1]] else { continue }
                let (start, end) = trim(scalars, a, b)
                let scorable = !["_group", "_unknowable", "unknowable", "unknown"].contains(speaker.lowercased())
                gold.append(GoldQuote(start: start, end: end, speaker: idOfName[speaker] ?? speaker, scorable: scorable))
            }
        }
        var toGold: [String: String] = [:]
        for character in analysis.characters {
            var votes: [String: Int] = [:]
            for name in [character.name] + character.aliases {
                for id in aliasOwners[normalise(name)] ?? [] { votes[id, default: 0] += 1 }
            }
            let top = votes.filter { $0.value == votes.values.max() }.map(\.key)
            // A tie goes to the gold character whose main name is the display name.
            let display = top.filter { mainName[$0] == normalise(character.name) }
            let chosen = top.count == 1 ? top : display
            if chosen.count == 1 { toGold[character.id] = chosen[0] }
        }
        let predicted: [(start: Int, end: Int, speaker: String?)] = analysis.segments.filter { $0.kind == .dialogue }.compactMap {
            let (a, b) = trim(scalars, $0.start, $0.end)
            return b > a ? (a, b, $0.speaker) : nil
        }.sorted { $0.start < $1.start }
        // Candidate pairs at IoU >= 0.5, then a greedy one-to-one match, best IoU first.
        var candidates: [(iou: Double, gold: Int, predicted: Int)] = []
        var first = 0
        for (i, g) in gold.enumerated().sorted(by: { $0.element.start < $1.element.start }) {
            while first < predicted.count, predicted[first].end <= g.start { first += 1 }
            var j = first
            while j < predicted.count, predicted[j].start < g.end {
                let p = predicted[j]
                let inter = min(g.end, p.end) - max(g.start, p.start), union = max(g.end, p.end) - min(g.start, p.start)
                if inter > 0, Double(inter) / Double(union) >= 0.5 { candidates.append((Double(inter) / Double(union), i, j)) }
                j += 1
            }
        }
        candidates.sort { $0.iou != $1.iou ? $0.iou > $1.iou : ($0.gold != $1.gold ? $0.gold > $1.gold : $0.predicted > $1.predicted) }
        var match: [Int: Int] = [:], used: Set<Int> = []
        for c in candidates where match[c.gold] == nil && !used.contains(c.predicted) { match[c.gold] = c.predicted; used.insert(c.predicted) }
        var correct = 0, scorable = 0
        for (i, g) in gold.enumerated() where g.scorable {
            scorable += 1
            if let j = match[i], let speaker = predicted[j].speaker, toGold[speaker] == g.speaker { correct += 1 }
        }
        let precision = Double(match.count) / Double(max(1, predicted.count)), recall = Double(match.count) / Double(max(1, gold.count))
        // Speaking characters that some system character maps to.
        let speaking = Set(gold.filter(\.scorable).map(\.speaker))
        let characterRecall = Double(speaking.intersection(toGold.values).count) / Double(max(1, speaking.count))
        return (Double(correct) / Double(max(1, scorable)), precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0, characterRecall)
    }
}

/// Serialized: each case analyses a whole novel synchronously, and eight at once would hold
/// every thread of a two-core machine's pool for a minute, starving the suite's network tests.
@Suite("Attribution regression on PDNC novels", .serialized)
struct AttributionRegressionTests {
    /// Floors a little under what the Python scorer measures (docs/analysis.md): Northanger Abbey
    /// from the first five novels, and seven of the eight added later, which the rules were not
    /// first written on (a narrator named only by a nickname, titled namesakes, families, roles
    /// named by any noun, newcomers, voices identified afterwards). Character recall is the share
    /// of the novel's speaking characters some character of the analysis stands for. Four floors
    /// (Northanger Abbey, The Sun Also Rises, Daisy Miller, Howards End) sit above what the rules
    /// alone reach (Howards End 0.771, The Sun Also Rises 0.819), so they fail if the turn model
    /// (`TurnCandidates`) stops choosing.
    static let floors: [(novel: String, attribution: Double, quoteF1: Double, characterRecall: Double)] = [
        ("NorthangerAbbey", 0.735, 0.975, 0.93),
        ("TheSunAlsoRises", 0.825, 0.97, 0.80),
        ("SenseAndSensibility", 0.72, 0.96, 0.94),
        ("DaisyMiller", 0.87, 0.97, 0.80),
        ("HardTimes", 0.835, 0.97, 0.90),
        ("HowardsEnd", 0.778, 0.97, 0.85),
        ("OliverTwist", 0.83, 0.98, 0.77),
        ("AlicesAdventuresInWonderland", 0.89, 0.95, 0.95),
    ]

    @Test("attribution, quote F1 and character recall stay above their floors",
          .enabled(if: PDNCFixture.available("NorthangerAbbey"), "PDNC eval data not found beside the repository (../shared/eval/pdnc-dev); skipped"),
          arguments: floors.map(\.novel))
    func novel(_ novel: String) throws {
        let floor = try #require(Self.floors.first { $0.novel == novel })
        let url = PDNCFixture.folder(novel).appendingPathComponent("novel_text.txt")
        let text = try String(contentsOf: url, encoding: .utf8)
        let analysis = StoryAnalyzer().analyze(StoryDocument(title: novel, text: text))
        let score = try PDNCFixture.score(novel: novel, text: text, analysis: analysis)
        #expect(score.attribution >= floor.attribution, "\(novel): attribution \(score.attribution)")
        #expect(score.quoteF1 >= floor.quoteF1, "\(novel): quote F1 \(score.quoteF1)")
        #expect(score.characterRecall >= floor.characterRecall, "\(novel): character recall \(score.characterRecall)")
    }
}
