import Foundation
import StoryModel

/// One row of `espeak-ng --voices=...`.
struct EspeakListedVoice: Sendable, Hashable {
    var language: String
    /// The age column when it gives one (`70/F`), nil for `--`.
    var age: Int?
    var gender: Gender
    var name: String
    /// The voice file relative to the voices directory: `gmw/en-US`, `mb/mb-us1`, `!v/m3`.
    var file: String

    /// MBROLA voices need the separate, non-free mbrola program and diphone databases.
    var isMBROLA: Bool { file.hasPrefix("mb/") }
    var isVariant: Bool { file.hasPrefix("!v/") }
    /// The name espeak-ng accepts after `+`: the variant's file name.
    var variantName: String { String(file.dropFirst(3)) }
}

/// Parses espeak-ng's voice listings. Pure, so it is tested on captured output.
enum EspeakListing {
    /// Parses the table `espeak-ng --voices[=lang]` prints; the header and malformed rows are skipped.
    static func parse(_ output: String) -> [EspeakListedVoice] {
        output.split(whereSeparator: \.isNewline).compactMap { line in
            let fields = line.split(whereSeparator: \.isWhitespace).map(String.init)
            guard fields.count >= 5, Int(fields[0]) != nil else { return nil }
            let ageGender = fields[2].split(separator: "/", omittingEmptySubsequences: false)
            guard ageGender.count == 2 else { return nil }
            let gender: Gender = switch ageGender[1].uppercased() {
            case "M": .male
            case "F": .female
            default: .unknown
            }
            // The file column may contain spaces ("!v/Mr serious"); other languages follow in parentheses.
            let fileFields = fields[4...].prefix { !$0.hasPrefix("(") }
            return EspeakListedVoice(
                language: fields[1], age: Int(ageGender[0]), gender: gender, name: fields[3],
                file: fileFields.joined(separator: " "))
        }
    }

    /// The base pitch a variant file sets (`pitch <low> <high>` in Hz), as the middle of its range.
    /// espeak-ng's default when a file sets none is 82–118 Hz.
    static func variantPitchHz(fileContents: String) -> Double {
        for line in fileContents.split(whereSeparator: \.isNewline) {
            let fields = line.split(whereSeparator: \.isWhitespace)
            if fields.count >= 3, fields[0] == "pitch", let low = Double(fields[1]), let high = Double(fields[2]) {
                return (low + high) / 2
            }
        }
        return 100
    }

    /// The version from `espeak-ng --version`: "eSpeak NG text-to-speech: 1.51  Data at: /usr/...".
    static func version(fromVersionOutput output: String) -> String? {
        guard let range = output.range(of: "text-to-speech:") else { return nil }
        return output[range.upperBound...].split(whereSeparator: \.isWhitespace).first.map(String.init)
    }

    /// The data directory from `espeak-ng --version`.
    static func dataDirectory(fromVersionOutput output: String) -> String? {
        guard let range = output.range(of: "Data at:") else { return nil }
        let rest = output[range.upperBound...].trimmingCharacters(in: .whitespacesAndNewlines)
        return rest.isEmpty ? nil : rest
    }

    /// `en-gb-scotland` → `en-GB-scotland`: BCP 47 casing, regions upper-case.
    static func accentTag(forLanguage language: String) -> String {
        language.split(separator: "-").enumerated().map { index, part in
            index == 1 && part.count == 2 ? part.uppercased() : String(part)
        }.joined(separator: "-")
    }
}
