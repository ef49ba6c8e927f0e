import Journeys
import Testing

@Suite struct EstimateTests {
    let oxford = Coordinate(latitude: 51.75222, longitude: -1.25596)
    let cambridge = Coordinate(latitude: 52.2, longitude: 0.11667)

    @Test func haversineMatchesKnownDistances() {
        // Oxford–Cambridge as the crow flies is about 106.5 km; a degree of longitude at the equator 111.2 km.
        #expect(abs(GreatCircle.distance(oxford, cambridge) - 106_500) < 1_000)
        #expect(abs(GreatCircle.distance(Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 1)) - 111_195) < 5)
        #expect(GreatCircle.distance(oxford, oxford) == 0)
        // Across the antimeridian, not the long way round.
        #expect(GreatCircle.distance(Coordinate(latitude: 0, longitude: 179.5), Coordinate(latitude: 0, longitude: -179.5)) < 112_000)
    }

    @Test func drivingOxfordToCambridgeTakesUnderTwoHours() {
        let route = TripEstimate.forMode(.driving).route(from: oxford, to: cambridge)
        #expect(abs(route.distanceMeters - 138_500) < 1_500)
        #expect((105 * 60...120 * 60).contains(route.durationSeconds))
        #expect(route.source == .estimate)
    }

    @Test func eachModeHasItsPace() {
        let walking = TripEstimate.forMode(.walking), cycling = TripEstimate.forMode(.cycling), driving = TripEstimate.forMode(.driving)
        #expect(abs(walking.duration(distance: 5_000) - 3600) < 1)
        #expect(abs(cycling.duration(distance: 15_000) - 3600) < 1)
        // A short drive is all town streets at 30 km/h.
        #expect(abs(driving.duration(distance: 5_000) - 600) < 1)
        #expect(abs(driving.duration(distance: 90_000) - (1200 + 3600)) < 1)
    }

    @Test func theLineFollowsTheGreatCircleFromStartToEnd() {
        let line = GreatCircle.line(from: oxford, to: cambridge)
        #expect(line.first == oxford)
        #expect(line.last == cambridge)
        #expect(line.count == 12)
        let legs = zip(line, line.dropFirst()).map { GreatCircle.distance($0, $1) }
        #expect(abs(legs.reduce(0, +) - GreatCircle.distance(oxford, cambridge)) < 1)
        #expect(GreatCircle.line(from: oxford, to: oxford) == [oxford, oxford])
    }
}

@Suite struct CoordinateTextTests {
    @Test func latitudeComesFirst() {
        #expect(Coordinate(text: "51.752,-1.2577") == Coordinate(latitude: 51.752, longitude: -1.2577))
        #expect(Coordinate(text: " 51.752 , -1.2577 ") == Coordinate(latitude: 51.752, longitude: -1.2577))
    }

    @Test func plainDecimalsWithSignsAndBarePointsAreRead() {
        #expect(Coordinate(text: "+51.5,-1") == Coordinate(latitude: 51.5, longitude: -1))
        #expect(Coordinate(text: ".5, 5.") == Coordinate(latitude: 0.5, longitude: 5))
    }

    /// Swift's `Double(_:)` reads hexadecimal and exponents ("0x10" is 16): not what a person
    /// means by a place, so not a coordinate (issue 46: "0x10,0x10" was accepted).
    @Test(arguments: [
        "Oxford, UK", "91,0", "0,181", "51.7", "1,2,3", "", ",", "nan,0", "0x10,0x10", "1e1,2", "inf,0", "0x1p4,0", "5,-", "1.2.3,4",
        "--5,5", "5+,5", String(repeating: "1", count: 40) + ",0",
    ])
    func otherTextIsNoCoordinate(text: String) {
        #expect(Coordinate(text: text) == nil)
    }
}

@Suite struct PlaceNameTests {
    @Test(arguments: [
        ("Zürich", "zurich"), ("  OXFORD ", "oxford"), ("St. John's", "st johns"), ("Straße", "strasse"), ("København", "kobenhavn"),
        ("Saint-Étienne", "saint etienne"), ("Łódź", "lodz"), ("İzmir", "izmir"), ("Ōsaka", "osaka"), ("New  York", "new york"), ("東京", ""),
    ])
    func namesFoldToTheirKey(name: String, key: String) {
        #expect(PlaceName.key(name) == key)
    }
}
