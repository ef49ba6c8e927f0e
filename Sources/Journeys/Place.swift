import Foundation

/// A point on the Earth in degrees (WGS 84), latitude first, as people write it. Wire formats that
/// put longitude first (OSRM, GeoJSON) convert at their edge.
public struct Coordinate: Sendable, Hashable, Codable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && (-90...90).contains(latitude) && (-180...180).contains(longitude)
    }

    private enum CodingKeys: String, CodingKey {
        case latitude = "lat"
        case longitude = "lon"
    }
}

/// A place a journey starts or ends at: what to call it, where it is, and how it was described by
/// whoever found it ("Oxford, England, United Kingdom").
public struct Place: Sendable, Hashable, Codable {
    public var name: String
    public var coordinate: Coordinate
    public var label: String?
    /// Other places the words given may mean, each as words that find it ("Cambridge,
    /// Massachusetts, United States"), most likely first: a client offers them beside the one
    /// used. Empty when the words were unambiguous (or came from a geocoder that does not say).
    public var alternatives: [String]

    public init(name: String, coordinate: Coordinate, label: String? = nil, alternatives: [String] = []) {
        self.name = name
        self.coordinate = coordinate
        self.label = label
        self.alternatives = alternatives
    }

    public init(name: String, latitude: Double, longitude: Double, label: String? = nil) {
        self.init(name: name, coordinate: Coordinate(latitude: latitude, longitude: longitude), label: label)
    }

    public var latitude: Double { coordinate.latitude }
    public var longitude: Double { coordinate.longitude }

    private enum CodingKeys: String, CodingKey {
        case name, lat, lon, label, alternatives
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        coordinate = Coordinate(latitude: try container.decode(Double.self, forKey: .lat), longitude: try container.decode(Double.self, forKey: .lon))
        label = try container.decodeIfPresent(String.self, forKey: .label)
        alternatives = try container.decodeIfPresent([String].self, forKey: .alternatives) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(latitude, forKey: .lat)
        try container.encode(longitude, forKey: .lon)
        try container.encodeIfPresent(label, forKey: .label)
        if !alternatives.isEmpty { try container.encode(alternatives, forKey: .alternatives) }
    }
}
