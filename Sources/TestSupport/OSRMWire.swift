import Foundation
import VendorHTTP

/// The server side of OSRM's route service (`GET /route/v1/{profile}/{lon},{lat};{lon},{lat}`),
/// written from OSRM's HTTP API reference independently of the client: coordinates are read
/// longitude first, a point far from every known stop is `NoSegment`, stops with no leg between
/// them are `NoRoute`, and the line is GeoJSON only when `geometries=geojson` was asked (else an
/// encoded polyline string, as OSRM's default is).
public enum OSRMWire {
    /// A place on the loopback's road network.
    public struct Stop: Sendable {
        public var name: String
        public var latitude: Double
        public var longitude: Double

        public init(_ name: String, latitude: Double, longitude: Double) {
            self.name = name
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    /// A road between two stops (either way), and what travelling it takes.
    public struct Leg: Sendable {
        public var from: String
        public var to: String
        public var distance: Double
        public var duration: Double

        public init(from: String, to: String, distance: Double, duration: Double) {
            self.from = from
            self.to = to
            self.distance = distance
            self.duration = duration
        }
    }

    /// OSRM's error reply: HTTP 400 with `code` and `message`.
    public static func error(code: String, message: String) -> LoopbackReply {
        LoopbackReply(status: 400, json: ["code": .string(code), "message": .string(message)])
    }

    /// A route service answer for one route from `start` to `end` along `line` (latitude, longitude pairs).
    public static func route(distance: Double, duration: Double, line: [(latitude: Double, longitude: Double)], geojson: Bool = true) -> LoopbackReply {
        let coordinates = JSONValue.array(line.map { [.number($0.longitude), .number($0.latitude)] })
        let geometry: JSONValue = geojson ? ["type": "LineString", "coordinates": coordinates] : "_p~iF~ps|U_ulLnnqC_mqNvxq`@"
        func waypoint(_ point: (latitude: Double, longitude: Double)) -> JSONValue {
            ["hint": "KSoKADRYroqUBAEAEAAAABkAAAAGAAAAAAAAABhnCQCLtwAA", "distance": 4.15, "name": "High Street", "location": [.number(point.longitude), .number(point.latitude)]]
        }
        return LoopbackReply(status: 200, json: [
            "code": "Ok",
            "routes": [[
                "geometry": geometry,
                "legs": [["steps": [], "summary": "", "weight": .number(duration), "duration": .number(duration), "distance": .number(distance)]],
                "weight_name": "routability", "weight": .number(duration), "duration": .number(duration), "distance": .number(distance),
            ]],
            "waypoints": .array([line.first, line.last].compactMap { $0 }.map(waypoint)),
        ])
    }

    /// Answers route requests on a network of `stops` joined by `legs`. A coordinate snaps to a
    /// stop within `snapDegrees` of it in both latitude and longitude.
    public static func handler(stops: [Stop], legs: [Leg], snapDegrees: Double = 0.05) -> LoopbackServer.Handler {
        { request in
            let (path, query) = split(request.uri)
            let segments = path.split(separator: "/").map(String.init)
            guard request.method == "GET", segments.count == 4, segments[0] == "route", segments[1] == "v1" else {
                return error(code: "InvalidUrl", message: "URL string malformed close to position 1: \"\(path)\"")
            }
            let pairs = segments[3].split(separator: ";").map { $0.split(separator: ",").map { Double($0) } }
            guard pairs.count == 2, pairs.allSatisfy({ $0.count == 2 && $0[0] != nil && $0[1] != nil }) else {
                return error(code: "InvalidQuery", message: "Query string malformed close to position \(segments[0].count + segments[1].count + segments[2].count + 4)")
            }
            // Longitude first, as OSRM reads them.
            let points = pairs.map { (longitude: $0[0]!, latitude: $0[1]!) }
            guard points.allSatisfy({ abs($0.latitude) <= 90 && abs($0.longitude) <= 180 }) else {
                return error(code: "InvalidValue", message: "Invalid coordinate value.")
            }
            let snapped = points.map { point in
                stops.first { abs($0.latitude - point.latitude) <= snapDegrees && abs($0.longitude - point.longitude) <= snapDegrees }
            }
            guard let start = snapped[0], let end = snapped[1] else {
                return error(code: "NoSegment", message: "Could not find a matching segment for coordinate \(snapped[0] == nil ? 0 : 1)")
            }
            guard let leg = legs.first(where: { ($0.from == start.name && $0.to == end.name) || ($0.from == end.name && $0.to == start.name) }) else {
                return error(code: "NoRoute", message: "Impossible route between points")
            }
            let middle = (latitude: (start.latitude + end.latitude) / 2 + 0.01, longitude: (start.longitude + end.longitude) / 2)
            return route(
                distance: leg.distance, duration: leg.duration,
                line: [(start.latitude, start.longitude), middle, (end.latitude, end.longitude)], geojson: query["geometries"] == "geojson"
            )
        }
    }

    /// A request's path and its query parameters, decoded.
    public static func split(_ uri: String) -> (path: String, query: [String: String]) {
        let components = URLComponents(string: "http://loopback" + uri)
        var query: [String: String] = [:]
        for item in components?.queryItems ?? [] { query[item.name] = item.value ?? "" }
        return (components?.path ?? uri, query)
    }
}
