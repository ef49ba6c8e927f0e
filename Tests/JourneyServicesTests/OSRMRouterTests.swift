import Foundation
import JourneyServices
import Journeys
import Testing
import TestSupport
import VendorHTTP

@Suite struct OSRMRouterTests {
    @Test func aRouteIsAskedLongitudeFirstAndItsLineReadBackLatitudeFirst() async throws {
        try await LoopbackServer.withServer(handler: Loopbacks.osrm) { server in
            let route = try await Loopbacks.router(server).route(from: Loopbacks.oxford, to: Loopbacks.cambridge, mode: .driving)
            #expect(route.distanceMeters == 135_000)
            #expect(route.durationSeconds == 6_600)
            #expect(route.source == .router)
            #expect(route.line.count == 3)
            #expect(route.line.first == Coordinate(latitude: 51.7520, longitude: -1.2577))
            #expect(route.line.last == Coordinate(latitude: 52.2053, longitude: 0.1218))
            let request = try #require(server.requests.first)
            #expect(request.method == "GET")
            #expect(request.uri.hasPrefix("/route/v1/car/-1.257700,51.752000;0.121800,52.205300?"))
            let (_, query) = OSRMWire.split(request.uri)
            #expect(query["overview"] == "full")
            #expect(query["geometries"] == "geojson")
            #expect(request.header("user-agent")?.contains("StoryVoice") == true)
        }
    }

    @Test func eachModeAsksForItsOwnProfile() async throws {
        try await LoopbackServer.withServer(handler: Loopbacks.osrm) { server in
            _ = try await Loopbacks.router(server, mode: .walking).route(from: Loopbacks.oxford, to: Loopbacks.cambridge, mode: .walking)
            _ = try await Loopbacks.router(server, mode: .cycling).route(from: Loopbacks.oxford, to: Loopbacks.cambridge, mode: .cycling)
            #expect(server.requests.map { $0.uri.split(separator: "/")[2] } == ["foot", "bike"])
        }
    }

    @Test func noRouteSaysThePlacesAreNotConnected() async throws {
        try await LoopbackServer.withServer(handler: Loopbacks.osrm) { server in
            await #expect {
                try await Loopbacks.router(server).route(from: Loopbacks.oxford, to: Loopbacks.reykjavik, mode: .driving)
            } throws: { error in
                (error as? JourneyError)?.says(.noRoute, "no driving route from Oxford to Reykjavík", "Impossible route between points") == true
            }
            #expect(server.requests.count == 1, "a 400 is not retried")
        }
    }

    @Test func noSegmentSaysAPlaceIsFarFromRoads() async throws {
        _ = try await LoopbackServer.withServer(handler: Loopbacks.osrm) { server in
            await #expect {
                try await Loopbacks.router(server).route(from: Loopbacks.oxford, to: Loopbacks.farAway, mode: .driving)
            } throws: { error in
                (error as? JourneyError)?.says(.noRoad, "too far from any road", "Could not find a matching segment") == true
            }
        }
    }

    @Test(arguments: ["InvalidQuery", "InvalidValue", "InvalidUrl", "TooBig"])
    func aRefusedQueryIsNamedByItsCode(code: String) async throws {
        try await LoopbackServer.withServer { server in
            server.enqueue(OSRMWire.error(code: code, message: "Query string malformed close to position 21"))
            await #expect {
                try await Loopbacks.router(server).route(from: Loopbacks.oxford, to: Loopbacks.cambridge, mode: .driving)
            } throws: { error in
                (error as? JourneyError)?.says(.invalidRequest, code, "Query string malformed close to position 21") == true
            }
        }
    }

    @Test func anOkWithoutRoutesIsNoRoute() async throws {
        try await LoopbackServer.withServer { server in
            server.enqueue(LoopbackReply(status: 200, json: ["code": "Ok", "routes": [], "waypoints": []]))
            await #expect {
                try await Loopbacks.router(server).route(from: Loopbacks.oxford, to: Loopbacks.cambridge, mode: .driving)
            } throws: { ($0 as? JourneyError)?.kind == .noRoute }
        }
    }

    @Test func aPolylineLineIsNotReadAsCoordinates() async throws {
        try await LoopbackServer.withServer { server in
            server.enqueue(OSRMWire.route(distance: 10, duration: 10, line: [(51.75, -1.25), (52.2, 0.12)], geojson: false))
            await #expect {
                try await Loopbacks.router(server).route(from: Loopbacks.oxford, to: Loopbacks.cambridge, mode: .driving)
            } throws: { ($0 as? JourneyError)?.kind == .serviceUnavailable }
        }
    }

    @Test func aServerErrorIsRetriedThenReported() async throws {
        try await LoopbackServer.withServer(handler: Loopbacks.osrm) { server in
            server.enqueue(LoopbackReply(status: 503, headers: [("content-type", "text/html")], body: Data("<html>busy</html>".utf8)))
            let route = try await Loopbacks.router(server).route(from: Loopbacks.oxford, to: Loopbacks.cambridge, mode: .driving)
            #expect(route.distanceMeters == 135_000)
            #expect(server.requests.count == 2)
        }
        try await LoopbackServer.withServer(handler: { _ in LoopbackReply(status: 503, json: ["message": "overloaded"]) }) { server in
            await #expect {
                try await Loopbacks.router(server).route(from: Loopbacks.oxford, to: Loopbacks.cambridge, mode: .driving)
            } throws: { error in
                (error as? JourneyError)?.says(.serviceUnavailable, "The driving router at \(server.baseURL)", "HTTP 503", "STORYVOICE_OSRM_URL_DRIVING") == true
            }
            #expect(server.requests.count == 3)
        }
    }

    @Test func aSlowRouterIsReportedAsSlow() async throws {
        try await LoopbackServer.withServer { server in
            server.enqueue(Loopbacks.slowReply, Loopbacks.slowReply)
            await #expect {
                try await Loopbacks.router(server, timeout: 0.5, attempts: 2).route(from: Loopbacks.oxford, to: Loopbacks.cambridge, mode: .driving)
            } throws: { error in
                (error as? JourneyError)?.says(.serviceTimeout, "did not answer within 1 s", "on every try") == true
            }
        }
    }

    @Test func aRouterThatIsDownIsReportedAtOnce() async throws {
        let url = try await Loopbacks.stoppedServerURL()
        let router = OSRMRouter(services: [.driving: JourneyService(name: "the driving router", baseURL: url, variable: "STORYVOICE_OSRM_URL_DRIVING")], transport: Loopbacks.transport())
        await #expect {
            try await router.route(from: Loopbacks.oxford, to: Loopbacks.cambridge, mode: .driving)
        } throws: { error in
            (error as? JourneyError)?.says(.serviceUnavailable, "Could not reach the driving router at \(url)", "STORYVOICE_OSRM_URL_DRIVING") == true
        }
    }
}
