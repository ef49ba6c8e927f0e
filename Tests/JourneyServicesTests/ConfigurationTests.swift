import Foundation
import JourneyServices
import Journeys
import Testing
import TestSupport

@Suite struct ConfigurationTests {
    @Test func nothingSetMeansOffline() throws {
        let configuration = try JourneyServicesConfiguration(environment: [:])
        #expect(configuration.routers.isEmpty)
        #expect(configuration.geocoder == nil)
        #expect(configuration.timeout == 10)
    }

    @Test func eachModeHasItsVariable() throws {
        let configuration = try JourneyServicesConfiguration(environment: [
            "STORYVOICE_OSRM_URL_DRIVING": "http://osrm-car:5000/", "STORYVOICE_OSRM_URL_WALKING": "https://osrm-foot.example",
            "STORYVOICE_NOMINATIM_URL": "http://nominatim:8080", "STORYVOICE_JOURNEY_TIMEOUT": "2.5", "STORYVOICE_JOURNEY_USER_AGENT": "StoryVoice (ops@example.org)",
        ])
        #expect(configuration.routers[.driving]?.baseURL == "http://osrm-car:5000")
        #expect(configuration.routers[.walking]?.variable == "STORYVOICE_OSRM_URL_WALKING")
        #expect(configuration.routers[.cycling] == nil)
        #expect(configuration.geocoder?.baseURL == "http://nominatim:8080")
        #expect(configuration.timeout == 2.5)
        #expect(configuration.userAgent == "StoryVoice (ops@example.org)")
    }

    @Test(arguments: [("STORYVOICE_OSRM_URL_CYCLING", "osrm:5000"), ("STORYVOICE_NOMINATIM_URL", "ftp://x"), ("STORYVOICE_JOURNEY_TIMEOUT", "soon")])
    func aBadSettingIsRefusedNamingTheVariable(variable: String, value: String) {
        #expect {
            try JourneyServicesConfiguration(environment: [variable: value])
        } throws: { ($0 as? JourneyError)?.says(.invalidRequest, variable) == true }
    }

    @Test func aModeWithoutARouterIsEstimated() async throws {
        let configuration = try JourneyServicesConfiguration(environment: ["STORYVOICE_OSRM_URL_DRIVING": "http://127.0.0.1:9"])
        let route = try await configuration.router().route(from: Loopbacks.oxford, to: Loopbacks.cambridge, mode: .cycling)
        #expect(route.source == .estimate)
    }

    @Test func searchesFromOneConfigurationGoOneAtATime() async throws {
        let slowNominatim: LoopbackServer.Handler = { request in
            var reply = await Loopbacks.nominatim(request)
            reply.delay = .milliseconds(300)
            return reply
        }
        try await LoopbackServer.withServer(handler: slowNominatim) { server in
            let configuration = try JourneyServicesConfiguration(environment: ["STORYVOICE_NOMINATIM_URL": server.baseURL, "STORYVOICE_JOURNEY_TIMEOUT": "\(loopbackTimeout)"])
            let unused = { () throws(JourneyError) -> Gazetteer in throw JourneyError(.gazetteerMissing, "not used") }
            let first = try configuration.geocoder(offline: unused), second = try configuration.geocoder(offline: unused)
            async let oxford = first.place(for: "Oxford, UK")
            async let cambridge = second.place(for: "Cambridge, UK")
            #expect(try await [oxford.name, cambridge.name] == ["Oxford", "Cambridge"])
            #expect(server.peakInFlight == 1)
        }
    }
}
