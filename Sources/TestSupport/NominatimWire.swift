import Foundation
import VendorHTTP

/// The server side of Nominatim's search (`GET /search?q=…&format=jsonv2&limit=1`), written from
/// Nominatim's API reference independently of the client: an array of places whose `lat` and
/// `lon` are strings, `[]` when nothing matches, 403 without a User-Agent (its usage policy) and
/// 400 for a format other than jsonv2 (the fields differ).
public enum NominatimWire {
    /// One search result.
    public struct Result: Sendable {
        public var query: String
        public var name: String
        public var displayName: String
        /// As Nominatim writes them: decimal strings.
        public var lat: String
        public var lon: String

        public init(query: String, name: String, displayName: String, lat: String, lon: String) {
            self.query = query
            self.name = name
            self.displayName = displayName
            self.lat = lat
            self.lon = lon
        }

        var json: JSONValue {
            [
                "place_id": 240_109_189, "licence": "Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright",
                "osm_type": "relation", "osm_id": 62_148, "lat": .string(lat), "lon": .string(lon),
                "category": "boundary", "type": "administrative", "place_rank": 16, "importance": 0.70,
                "addresstype": "city", "name": .string(name), "display_name": .string(displayName),
                "boundingbox": [.string(lat), .string(lat), .string(lon), .string(lon)],
            ]
        }
    }

    /// Nominatim's error reply: `{"error": {"code": …, "message": …}}`.
    public static func error(status: Int, message: String) -> LoopbackReply {
        LoopbackReply(status: status, json: ["error": ["code": .number(Double(status)), "message": .string(message)]])
    }

    /// Answers searches from `results`, matching `q` whatever its case.
    public static func handler(_ results: [Result]) -> LoopbackServer.Handler {
        { request in
            let (path, query) = OSRMWire.split(request.uri)
            guard path == "/search" else { return error(status: 404, message: "Unknown endpoint \(path)") }
            guard let agent = request.header("user-agent"), !agent.isEmpty else {
                return LoopbackReply(status: 403, headers: [("content-type", "text/html")], body: Data("<html>Access blocked: no User-Agent</html>".utf8))
            }
            guard query["format"] == "jsonv2" else { return error(status: 400, message: "Parameter 'format': expected jsonv2 in this loopback") }
            guard let q = query["q"], !q.isEmpty else { return error(status: 400, message: "Nominatim needs a query") }
            let limit = Int(query["limit"] ?? "10") ?? 10
            let found = results.filter { $0.query.lowercased() == q.lowercased() }.prefix(limit)
            return LoopbackReply(status: 200, json: .array(found.map(\.json)))
        }
    }
}
