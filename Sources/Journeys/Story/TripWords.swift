import Foundation

/// The trip as the storyteller is told it, in words a listener may hear: place names, never
/// coordinates. A place given as "lat,lon" (a phone's location) that no gazetteer could name is
/// said by where it lies from the other end ("a spot 1.2 kilometres north-east of Oxford"); a
/// model told "walking from Oxford to 51.75900, -1.24000" read the numbers out.
public enum TripWords {
    /// "from Oxford to Headington", "across Oxford", "from Oxford to a spot 1.2 kilometres
    /// east of Oxford", "on a 900-metre trip heading north".
    public static func trip(from start: Place, to end: Place) -> String {
        let startName = spokenName(start), endName = spokenName(end)
        let distance = GreatCircle.distance(start.coordinate, end.coordinate)
        switch (startName, endName) {
        case let (from?, to?) where PlaceName.key(from) == PlaceName.key(to):
            return "across \(from)"
        case let (from?, to?):
            return "from \(from) to \(to)"
        case let (from?, nil):
            return "from \(from) to a spot \(self.distance(distance)) \(direction(from: start.coordinate, to: end.coordinate)) of \(from)"
        case let (nil, to?):
            return "to \(to) from a spot \(self.distance(distance)) \(direction(from: end.coordinate, to: start.coordinate)) of \(to)"
        case (nil, nil):
            return "on a trip of \(self.distance(distance)) heading \(direction(from: start.coordinate, to: end.coordinate))"
        }
    }

    /// A place's name as it may be spoken: nil when it is only its coordinates.
    public static func spokenName(_ place: Place) -> String? {
        let name = place.name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, !isCoordinates(name) else { return nil }
        return name
    }

    /// Whether `text` is a latitude and longitude ("51.75900, -1.24000"), or has numbers that
    /// look like one.
    public static func isCoordinates(_ text: String) -> Bool {
        Coordinate(text: text) != nil || text.range(of: #"-?\d{1,3}\.\d{2,}"#, options: .regularExpression) != nil
    }

    /// "900 metres", "1.2 kilometres", "38 kilometres".
    public static func distance(_ meters: Double) -> String {
        if meters < 950 { return "\(max(50, Int((meters / 50).rounded()) * 50)) metres" }
        let kilometres = meters / 1000
        if kilometres < 9.95 {
            let tenths = (kilometres * 10).rounded() / 10
            return tenths == tenths.rounded() ? "\(Int(tenths)) kilometre\(tenths == 1 ? "" : "s")" : String(format: "%.1f kilometres", tenths)
        }
        return "\(Int(kilometres.rounded())) kilometres"
    }

    /// The compass point from `a` towards `b`, of eight: "north", "north-east", …
    public static func direction(from a: Coordinate, to b: Coordinate) -> String {
        let φ1 = a.latitude * .pi / 180, φ2 = b.latitude * .pi / 180, Δλ = (b.longitude - a.longitude) * .pi / 180
        let y = sin(Δλ) * cos(φ2), x = cos(φ1) * sin(φ2) - sin(φ1) * cos(φ2) * cos(Δλ)
        let bearing = (atan2(y, x) * 180 / .pi + 360).truncatingRemainder(dividingBy: 360)
        let points = ["north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west"]
        return points[Int((bearing / 45).rounded()) % 8]
    }
}
