import DatabaseTestSupport
import Foundation
import NIOCore
import Persistence
@testable import StoryServer
import StoryWorkflows
import Testing
import VaporTesting

@Suite("Stories API")
struct StoriesAPITests {
    struct Story: Decodable {
        var id: UUID
        var title: String
        var author: String?
        var text: String?
        var analysis_state: String
        var character_count: Int
    }

    struct StoryList: Decodable { var stories: [Story] }

    static func multipart(filename: String, contents: String, title: String? = nil) -> (HTTPHeaders, ByteBuffer) {
        let boundary = "storyvoice-test-boundary"
        var body = "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(filename)\"\r\n"
        body += "Content-Type: application/octet-stream\r\n\r\n\(contents)\r\n"
        if let title {
            body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\n\(title)\r\n"
        }
        body += "--\(boundary)--\r\n"
        return (["Content-Type": "multipart/form-data; boundary=\(boundary)"], ByteBuffer(string: body))
    }

    @Test("paste, list, read, rename, delete; other users see nothing", arguments: Backend.available)
    func crud(_ backend: Backend) async throws {
        try await withServer(backend) { app, _, _ in
            let ada = try await app.register("ada@example.com").access_token
            let bob = try await app.register("bob@example.com").access_token
            let created = try await app.send(.POST, "/api/stories", token: ada, json: #"""
                {"text": "# The Open Window\n\n“My aunt will be down presently,” said a very self-possessed young lady.", "author": "Saki"}
                """#)
            #expect(created.status == .created, "\(created.body.string)")
            let story = try created.content.decode(Story.self)
            #expect(story.title == "The Open Window")
            #expect(story.author == "Saki")
            #expect(story.analysis_state == "not_analyzed")
            #expect(story.text?.hasPrefix("# The Open Window") == true)
            #expect(created.headers.first(name: .location) == "/api/stories/\(story.id)")

            let list = try await app.send(.GET, "/api/stories", token: ada).content.decode(StoryList.self)
            #expect(list.stories.map(\.id) == [story.id])
            #expect(list.stories[0].text == nil)
            #expect(try await app.send(.GET, "/api/stories", token: bob).content.decode(StoryList.self).stories.isEmpty)

            for (method, json) in [(HTTPMethod.GET, nil), (.PATCH, #"{"title":"Mine now"}"#), (.DELETE, nil)] as [(HTTPMethod, String?)] {
                let reply = try await app.send(method, "/api/stories/\(story.id)", token: bob, json: json)
                #expect(reply.status == .notFound, "\(method)")
            }

            let renamed = try await app.send(.PATCH, "/api/stories/\(story.id)", token: ada, json: #"{"title":"  The Open Window (Saki)  "}"#)
            #expect(try renamed.content.decode(Story.self).title == "The Open Window (Saki)")
            let emptyTitle = try await app.send(.PATCH, "/api/stories/\(story.id)", token: ada, json: #"{"title":"  "}"#)
            #expect(emptyTitle.status == .unprocessableEntity)
            let read = try await app.send(.GET, "/api/stories/\(story.id)", token: ada).content.decode(Story.self)
            #expect(read.title == "The Open Window (Saki)")

            #expect(try await app.send(.DELETE, "/api/stories/\(story.id)", token: ada).status == .noContent)
            #expect(try await app.send(.GET, "/api/stories/\(story.id)", token: ada).status == .notFound)
        }
    }

    @Test("upload a text file; other formats and empty texts are refused")
    func upload() async throws {
        try await withServer { app, _, _ in
            let ada = try await app.register("ada@example.com").access_token
            let (headers, body) = Self.multipart(filename: "the_open_window.txt", contents: "“Hello,” said Vera.")
            let uploaded = try await app.send(.POST, "/api/stories", token: ada, headers: headers, body: body)
            #expect(uploaded.status == .created, "\(uploaded.body.string)")
            let story = try uploaded.content.decode(Story.self)
            #expect(story.title == "The Open Window")
            #expect(story.text == "“Hello,” said Vera.")
            #expect(story.character_count == "“Hello,” said Vera.".unicodeScalars.count)

            let (htmlHeaders, html) = Self.multipart(
                filename: "vera.html", contents: "<html><head><title>Vera</title></head><body><p>“Hello,” said Vera.</p></body></html>"
            )
            let fromHTML = try await app.send(.POST, "/api/stories", token: ada, headers: htmlHeaders, body: html)
            #expect(fromHTML.status == .created, "\(fromHTML.body.string)")
            let htmlStory = try fromHTML.content.decode(Story.self)
            #expect(htmlStory.text?.contains("“Hello,” said Vera.") == true)
            #expect(htmlStory.text?.contains("<p>") == false)

            let (pdfHeaders, pdf) = Self.multipart(filename: "book.pdf", contents: "%PDF-1.4")
            let refused = try await app.send(.POST, "/api/stories", token: ada, headers: pdfHeaders, body: pdf)
            #expect(refused.status == .unsupportedMediaType)
            #expect(refused.errorMessage?.contains(".epub") == true)

            let (brokenHeaders, broken) = Self.multipart(filename: "book.epub", contents: "not a zip at all")
            let unreadable = try await app.send(.POST, "/api/stories", token: ada, headers: brokenHeaders, body: broken)
            #expect(unreadable.status == .unprocessableEntity)

            let empty = try await app.send(.POST, "/api/stories", token: ada, json: #"{"text": "   \n  "}"#)
            #expect(empty.status == .unprocessableEntity)
            #expect(empty.errorCode == "empty_story")

            let wrongType = try await app.send(.POST, "/api/stories", token: ada, json: #"{"text": ["a"]}"#)
            #expect(wrongType.status == .badRequest)
            #expect(try await app.send(.POST, "/api/stories", json: #"{"text":"x"}"#).status == .unauthorized)
        }
    }

    @Test("oversize uploads answer 413; long texts go to a content-addressed file")
    func limitsAndFiles() async throws {
        try await withServer(adjust: { $0.maxUploadBytes = 64 * 1024; $0.inlineTextLimitBytes = 1024 }) { app, config, _ in
            let ada = try await app.register("ada@example.com").access_token
            let (headers, body) = Self.multipart(filename: "big.txt", contents: String(repeating: "word ", count: 20_000))
            let tooBig = try await app.send(.POST, "/api/stories", token: ada, headers: headers, body: body)
            #expect(tooBig.status == .payloadTooLarge)
            #expect(tooBig.errorMessage?.contains("upload is larger than") == true)

            let text = String(repeating: "Once upon a time. ", count: 200)
            let created = try await app.send(.POST, "/api/stories", token: ada, json: #"{"title":"Long","text":"\#(text)"}"#)
            #expect(created.status == .created)
            let id = try created.content.decode(Story.self).id
            let owner = try #require(try await UserRepository(database: app.appDatabase).find(email: "ada@example.com")?.id)
            let record = try #require(try await StoryRepository(database: app.appDatabase).find(id: id, ownerID: owner))
            #expect(record.text == nil)
            let path = try #require(record.textPath)
            #expect(FileManager.default.fileExists(atPath: config.dataDirectory.filesDirectory.appendingPathComponent(path).path))
            #expect(try await app.send(.GET, "/api/stories/\(id)", token: ada).content.decode(Story.self).text == text)
        }
    }
}
