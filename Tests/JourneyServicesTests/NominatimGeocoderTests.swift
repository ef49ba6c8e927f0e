import Foundation
import JourneyServices
import Journeys
import Testing
import TestSupport
import VendorHTTP

@Suite struct NominatimGeocoderTests {
    @Test func aPlaceIsReadFromItsLatAndLonStrings() async throws {
        try await LoopbackServer.withServer(handler: Loopbacks.nominatim) { server in
            let place = try await Loopbacks.geocoder(server).place(for: "Oxford, UK")
            #expect(place.name == "Oxford")
            #expect(place.latitude == 51.7520131)
            #expect(place.longitude == -1.2578499)
            #expect(place.label == "Oxford, Oxfordshire, England, United Kingdom")
            let request = try #require(server.requests.first)
            let (path, query) = OSRMWire.split(request.uri)
            #expect(path == "/search")
            #expect(query["q"] == "Oxford, UK")
            #expect(query["format"] == "jsonv2")
            #expect(query["limit"] == "1")
            #expect(request.header("user-agent") == JourneyServicesConfiguration.defaultUserAgent)
        }
    }

    @Test func aQueryWithPlusAndAmpersandArrivesWhole() async throws {
        try await LoopbackServer.withServer(handler: Loopbacks.nominatim) { server in
            _ = try? await Loopbacks.geocoder(server).place(for: "A+B & C=D")
            let request = try #require(server.requests.first)
            #expect(OSRMWire.split(request.uri).query["q"] == "A+B & C=D")
        }
    }

    @Test func nothingFoundIsAnUnknownPlace() async throws {
        _ = try await LoopbackServer.withServer(handler: Loopbacks.nominatim) { server in
            await #expect {
                try await Loopbacks.geocoder(server).place(for: "Nowhere-on-Sea")
            } throws: { error in
                (error as? JourneyError)?.says(.unknownPlace, "No place called “Nowhere-on-Sea”", "the geocoder found nothing") == true
            }
        }
    }

    @Test func latitudeAndLongitudeNeedNoRequest() async throws {
        try await LoopbackServer.withServer(handler: Loopbacks.nominatim) { server in
            let place = try await Loopbacks.geocoder(server).place(for: "51.5, -0.12")
            #expect(place.coordinate == Coordinate(latitude: 51.5, longitude: -0.12))
            #expect(server.requests.isEmpty)
        }
    }

    @Test("with the gazetteer installed, coordinates are named by it, without asking; names are still Nominatim's")
    func coordinatesAreNamedOffline() async throws {
        try await LoopbackServer.withServer(handler: Loopbacks.nominatim) { server in
            let geocoder = CoordinateNamingGeocoder(base: Loopbacks.geocoder(server)) { try? InstalledGazetteer.shared.get() }
            let point = try await geocoder.place(for: "51.7520,-1.2577")
            #expect(point.name == "Oxford" && point.coordinate == Coordinate(latitude: 51.752, longitude: -1.2577))
            #expect(server.requests.isEmpty)
            #expect(try await geocoder.place(for: "Oxford, UK").label == "Oxford, Oxfordshire, England, United Kingdom")
            #expect(server.requests.count == 1)
        }
    }

    @Test func itsErrorMessageIsPassedOn() async throws {
        try await LoopbackServer.withServer { server in
            server.enqueue(NominatimWire.error(status: 400, message: "Parameter 'q' is too long"))
            await #expect {
                try await Loopbacks.geocoder(server).place(for: "Oxford")
            } throws: { error in
                (error as? JourneyError)?.says(.invalidRequest, "HTTP 400", "Parameter 'q' is too long", "STORYVOICE_NOMINATIM_URL") == true
            }
        }
    }

    @Test func anAnswerThatIsNotASearchResultIsUnreadable() async throws {
        try await LoopbackServer.withServer { server in
            server.enqueue(LoopbackReply(status: 200, json: ["lat": 51.75, "lon": -1.25]))
            server.enqueue(LoopbackReply(status: 200, json: [["lat": 51.75, "lon": -1.25, "display_name": "numbers, not strings"]]))
            for _ in 0..<2 {
                await #expect {
                    try await Loopbacks.geocoder(server).place(for: "Oxford")
                } throws: { ($0 as? JourneyError)?.kind == .serviceUnavailable }
            }
        }
    }

    @Test func aSlowGeocoderIsReportedAsSlow() async throws {
        try await LoopbackServer.withServer { server in
            server.enqueue(Loopbacks.slowReply, Loopbacks.slowReply)
            await #expect {
                try await Loopbacks.geocoder(server, timeout: 0.5, attempts: 2).place(for: "Oxford, UK")
            } throws: { ($0 as? JourneyError)?.says(.serviceTimeout, "The geocoder at", "did not answer within 1 s") == true }
        }
    }

    @Test func aGeocoderThatIsDownIsReportedAtOnce() async throws {
        let url = try await Loopbacks.stoppedServerURL()
        let geocoder = NominatimGeocoder(service: JourneyService(name: "the geocoder", baseURL: url, variable: "STORYVOICE_NOMINATIM_URL"), transport: Loopbacks.transport())
        await #expect {
            try await geocoder.place(for: "Oxford, UK")
        } throws: { ($0 as? JourneyError)?.says(.serviceUnavailable, "Could not reach the geocoder at \(url)") == true }
    }
}

@Suite struct PlanningWithLiveServicesTests {
    @Test func oxfordToCambridgeIsPlannedFromBothServices() async throws {
        try await LoopbackServer.withServer(handler: Loopbacks.nominatim) { geocoding in
            try await LoopbackServer.withServer(handler: Loopbacks.osrm) { routing in
                let plan = try await JourneyPlanner.plan(
                    from: "Oxford, UK", to: "Cambridge, UK", mode: .driving, geocoder: Loopbacks.geocoder(geocoding), router: Loopbacks.router(routing)
                )
                #expect(plan.parts == 110)
                #expect(plan.route.distanceMeters == 135_000)
                #expect(plan.start.name == "Oxford")
                #expect(plan.end.name == "Cambridge")
            }
        }
    }

    @Test func theSamePlaceTwiceIsRefusedBeforeRouting() async throws {
        try await LoopbackServer.withServer(handler: Loopbacks.nominatim) { geocoding in
            try await LoopbackServer.withServer(handler: Loopbacks.osrm) { routing in
                await #expect {
                    try await JourneyPlanner.plan(from: "Oxford, UK", to: "51.75201,-1.25785", mode: .walking, geocoder: Loopbacks.geocoder(geocoding), router: Loopbacks.router(routing, mode: .walking))
                } throws: { ($0 as? JourneyError)?.kind == .samePlace }
                #expect(routing.requests.isEmpty)
            }
        }
    }
}
