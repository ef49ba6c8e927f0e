import Foundation

/// Distances and lines on a sphere the size of the Earth.
public enum GreatCircle {
    /// The mean Earth radius (IUGG), in metres: the haversine's error against the ellipsoid is
    /// under 0.5 %, far below the detour factor's.
    public static let earthRadius = 6_371_008.8

    /// The great-circle (haversine) distance in metres.
    public static func distance(_ a: Coordinate, _ b: Coordinate) -> Double {
        let φ1 = a.latitude * .pi / 180, φ2 = b.latitude * .pi / 180
        let Δφ = φ2 - φ1, Δλ = (b.longitude - a.longitude) * .pi / 180
        let h = sin(Δφ / 2) * sin(Δφ / 2) + cos(φ1) * cos(φ2) * sin(Δλ / 2) * sin(Δλ / 2)
        return 2 * earthRadius * asin(min(1, sqrt(h)))
    }

    /// Points along the great circle from `a` to `b`, both included, about `spacing` metres apart
    /// (at most `maxPoints`), so an estimated route still draws as a line a marker can move along.
    public static func line(from a: Coordinate, to b: Coordinate, spacing: Double = 10_000, maxPoints: Int = 65) -> [Coordinate] {
        let total = distance(a, b)
        let segments = max(1, min(maxPoints - 1, Int((total / spacing).rounded(.up))))
        guard total > 0, segments > 1 else { return [a, b] }
        let δ = total / earthRadius
        let φ1 = a.latitude * .pi / 180, λ1 = a.longitude * .pi / 180
        let φ2 = b.latitude * .pi / 180, λ2 = b.longitude * .pi / 180
        return (0...segments).map { step in
            if step == 0 { return a }
            if step == segments { return b }
            let f = Double(step) / Double(segments)
            let s1 = sin((1 - f) * δ) / sin(δ), s2 = sin(f * δ) / sin(δ)
            let x = s1 * cos(φ1) * cos(λ1) + s2 * cos(φ2) * cos(λ2)
            let y = s1 * cos(φ1) * sin(λ1) + s2 * cos(φ2) * sin(λ2)
            let z = s1 * sin(φ1) + s2 * sin(φ2)
            return Coordinate(latitude: atan2(z, sqrt(x * x + y * y)) * 180 / .pi, longitude: atan2(y, x) * 180 / .pi)
        }
    }
}

extension Coordinate {
    /// "51.7520,-1.2577" or "51.7520, -1.2577" (latitude first, as people and phones write it);
    /// nil for anything else, or for numbers off the globe. Only plain decimals are numbers here:
    /// `Double("0x10")` is 16 and `Double("1e1")` is 10, which nobody means by a place.
    public init?(text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2,
              let latitude = Self.decimal(parts[0].trimmingCharacters(in: .whitespaces)),
              let longitude = Self.decimal(parts[1].trimmingCharacters(in: .whitespaces))
        else { return nil }
        self.init(latitude: latitude, longitude: longitude)
        guard isValid else { return nil }
    }

    /// An optional sign, digits, and an optional decimal point with digits after it (".5" and
    /// "5." too); at most 32 characters, so a long run of digits is refused before it is read.
    static func decimal(_ text: String) -> Double? {
        let bytes = Array(text.utf8.prefix(33))
        guard !bytes.isEmpty, bytes.count <= 32 else { return nil }
        var digits = 0, points = 0
        for (index, byte) in bytes.enumerated() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
            case UInt8(ascii: "."): points += 1
            case UInt8(ascii: "+"), UInt8(ascii: "-"): if index != 0 { return nil }
            default: return nil
            }
        }
        guard digits > 0, points <= 1 else { return nil }
        return Double(text)
    }

    /// "51.75200, -1.25770": latitude first, five decimals (about a metre).
    public var text: String {
        String(format: "%.5f, %.5f", latitude, longitude)
    }
}
