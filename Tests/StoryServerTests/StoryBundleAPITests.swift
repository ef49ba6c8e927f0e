import DatabaseTestSupport
import Foundation
import NIOCore
@testable import StoryServer
import StoryWorkflows
import Testing
import VaporTesting

@Suite("Story bundles: export and import back")
struct StoryBundleAPITests {
    @Test("a story exported as a bundle imports back with its text, corrected analysis and voices", arguments: Backend.available)
    func roundTrip(_ backend: Backend) async throws {
        try await withNarrationServer(backend) { app, config, _ in
            let ada = try await app.register("ada@example.com").access_token
            let story = try await app.analyzedSample(ada, config)
            let original = try #require(try await app.analysis(story, ada).analysis)
            let character = try #require(original.characters.first).id
            #expect(try await app.send(.PATCH, "/api/stories/\(story)/characters/\(character)", token: ada, json: #"{"accent":"Irish"}"#).status == .ok)
            #expect(try await app.send(.PUT, "/api/stories/\(story)/cast/\(character)", token: ada, json: #"{"voice":"test:bass","rate":1.2}"#).status == .ok)

            let exported = try await app.send(.GET, "/api/stories/\(story)/bundle", token: ada)
            #expect(exported.status == .ok)
            #expect(exported.headers.contentType == HTTPMediaType(type: "application", subType: "zip"))
            #expect(exported.headers.first(name: .contentDisposition)?.contains(".storyvoice.zip") == true)
            let bob = try await app.register("bob@example.com").access_token
            #expect(try await app.send(.GET, "/api/stories/\(story)/bundle", token: bob).status == .notFound)

            // Bob imports Ada's file: a new story of his, analysed, with her corrections and voices.
            let (headers, body) = Self.multipart(filename: "The Open Window.storyvoice.zip", data: Data(exported.body.readableBytesView))
            let imported = try await app.send(.POST, "/api/stories", token: bob, headers: headers, body: body)
            #expect(imported.status == .created, "\(imported.body.string)")
            let copy = try imported.content.decode(StoriesAPITests.Story.self)
            #expect(copy.id != story)
            #expect(copy.title == "The Open Window")
            #expect(copy.analysis_state == "analyzed")
            #expect(copy.text == sampleStory)
            let reply = try await app.analysis(copy.id, bob)
            #expect(reply.analysis?.segments == original.segments)
            #expect(reply.analysis?.character(id: character)?.accent == "Irish")
            #expect(reply.overrides.characters[character]?.voice == "test:bass")
            #expect(reply.cast?.characters[character]?.rate == 1.2)
        }
    }

    @Test("a damaged bundle is refused with a message that says what to do")
    func damaged() async throws {
        try await withNarrationServer { app, _, _ in
            let ada = try await app.register("ada@example.com").access_token
            var bytes = [UInt8](Data("PK\u{03}\u{04}".utf8)) + [UInt8](repeating: 0, count: 64)
            bytes[10] = 1
            let (headers, body) = Self.multipart(filename: "broken.storyvoice.zip", data: Data(bytes))
            let reply = try await app.send(.POST, "/api/stories", token: ada, headers: headers, body: body)
            #expect(reply.status.code >= 400 && reply.status.code < 500)
            #expect(reply.errorMessage?.isEmpty == false)
            #expect(try await app.send(.GET, "/api/stories", token: ada).content.decode(StoriesAPITests.StoryList.self).stories.isEmpty)
        }
    }

    static func multipart(filename: String, data: Data) -> (HTTPHeaders, ByteBuffer) {
        let boundary = "storyvoice-bundle-boundary"
        var body = ByteBuffer()
        body.writeString("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(filename)\"\r\n")
        body.writeString("Content-Type: application/zip\r\n\r\n")
        body.writeBytes(data)
        body.writeString("\r\n--\(boundary)--\r\n")
        return (["Content-Type": "multipart/form-data; boundary=\(boundary)"], body)
    }
}
