import Foundation

/// The form a place name is looked up by, whatever its accents, case or punctuation:
/// "Zürich" and "zurich" are "zurich", "St. John's" is "st johns", "Straße" is "strasse".
///
/// `scripts/gazetteer.py` (`key`) computes the same keys for the installed gazetteer, which is
/// sorted by them; the two must change together (and the gazetteer's format number with them).
public enum PlaceName {
    /// The most characters (Unicode scalars, as JSON Schema's `maxLength` counts them) a place
    /// may be given in: a town with its region and country, or an address with its postcode,
    /// fits with room to spare. Checked before anything looks the place up (a 900 KB name once
    /// took seconds of the gazetteer's time, and every other request waited behind it).
    public static let maximumLength = 200

    /// Whether `text` is over ``maximumLength`` characters, decided without reading a long text
    /// through: a scalar is one to four UTF-8 bytes.
    public static func isTooLong(_ text: String) -> Bool {
        let bytes = text.utf8.count
        if bytes <= maximumLength { return false }
        if bytes > maximumLength * 4 { return true }
        return text.unicodeScalars.count > maximumLength
    }

    /// Letters that do not decompose into a base letter and a mark.
    static let special: [Unicode.Scalar: String] = [
        "ß": "ss", "æ": "ae", "ø": "o", "œ": "oe", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i", "ħ": "h", "ŧ": "t",
    ]
    static let apostrophes: Set<Unicode.Scalar> = ["'", "’", "‘", "ʼ", "ʻ", "`"]

    /// Compatibility-decomposed, marks dropped, lower-cased; apostrophes dropped; a few letters
    /// spelled out; anything else that is not an ASCII letter or digit separates words.
    public static func key(_ text: String) -> String {
        let decomposed = text.decomposedStringWithCompatibilityMapping.unicodeScalars
            .filter { $0.properties.generalCategory != .nonspacingMark }
        let lower = String(String.UnicodeScalarView(decomposed)).lowercased()
        var out = ""
        out.reserveCapacity(lower.utf8.count)
        var pendingSpace = false
        func append(_ scalar: Unicode.Scalar) {
            if pendingSpace, !out.isEmpty { out.append(" ") }
            pendingSpace = false
            out.unicodeScalars.append(scalar)
        }
        for scalar in lower.unicodeScalars {
            if apostrophes.contains(scalar) { continue }
            if let spelled = special[scalar] {
                spelled.unicodeScalars.forEach(append)
            } else if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                append(scalar)
            } else {
                pendingSpace = true
            }
        }
        return out
    }
}
