import ChatWorkflows
import Foundation
import Jobs
import Persistence
@testable import StoryServer
import Testing
import VaporTesting
import VendorHTTP

/// Chat story videos made by the job queue's worker with the real exporter and ffmpeg.
@Suite("Chat stories exports", .serialized)
struct ChatExportTests {
    @Test("an export job makes an MP4 ffprobe reads, downloadable in ranges by its owner and shared by link without signing in",
          arguments: TestArtifacts.available)
    func endToEnd(_ kept: TestArtifacts) async throws {
        let bucket = try await kept.store()
        try await withServer(adjust: { config in if let bucket { config.artifacts = bucket } }) { app, config, _ in
            let ada = try await app.register("ada@example.com").access_token
            let bob = try await app.register("bob@example.com").access_token
            let chat = try await app.createChat(ada)
            let queued = try await app.startChatExport(chat, token: ada)
            #expect(queued.status == .accepted, "\(queued.body.string)")
            let export = try await app.finishChatExport(queued, token: ada, config: config)
            #expect(export.status == "succeeded", "\(export.error ?? "")")
            let job = try await app.send(.GET, "/api/jobs/\(try #require(export.job_id))", token: ada).json
            #expect(job?["progress"]?.doubleValue == 1 && job?["kind"]?.stringValue == "chat-export")

            let video = try await app.send(.GET, try #require(export.video_url), token: ada)
            #expect(video.status == .ok)
            #expect(video.headers.contentType?.description.hasPrefix("video/mp4") == true)
            let probe = try VideoProbe.probe(Data(video.body.readableBytesView))
            #expect(probe.streams.contains { $0.codec_type == "video" && $0.width == 1080 && $0.height == 1080 })
            #expect(probe.streams.contains { $0.codec_type == "audio" })

            let part = try await app.send(.GET, try #require(export.video_url), token: ada, headers: ["Range": "bytes=0-99"])
            #expect(part.status == .partialContent && part.body.readableBytes == 100)
            #expect(try await app.send(.GET, try #require(export.video_url), token: bob).status == .notFound)
            #expect(try await app.send(.GET, try #require(export.video_url)).status == .unauthorized)

            let shared = try await app.send(.POST, "/api/chat/exports/\(export.id)/share", token: ada).content.decode(ChatExportReply.self)
            let link = try #require(shared.share_url)
            #expect(link.hasPrefix("/share/chat/") && link.count > 50)
            let again = try await app.send(.POST, "/api/chat/exports/\(export.id)/share", token: ada).content.decode(ChatExportReply.self)
            #expect(again.share_url == link)
            let watched = try await app.send(.GET, link)
            #expect(watched.status == .ok && watched.body.readableBytes == video.body.readableBytes)
            #expect(watched.headers.first(name: .contentDisposition)?.hasPrefix("inline") == true)
            var wrong = link
            wrong.removeLast()
            wrong += link.hasSuffix("A") ? "B" : "A"
            #expect(try await app.send(.GET, wrong).status == .notFound)
            #expect(try await app.send(.GET, "/share/chat/nothing").status == .notFound)
            // Ended, the link shows nothing; shared again, the video has a new link.
            let ended = try await app.send(.DELETE, "/api/chat/exports/\(export.id)/share", token: ada).content.decode(ChatExportReply.self)
            #expect(ended.share_url == nil)
            #expect(try await app.send(.GET, link).status == .notFound)
            let reshared = try #require(try await app.send(.POST, "/api/chat/exports/\(export.id)/share", token: ada).content.decode(ChatExportReply.self).share_url)
            #expect(reshared != link)
            #expect(try await app.send(.GET, reshared).status == .ok)

            let owner = try #require(try await app.send(.GET, "/api/me", token: ada).content.decode([String: String].self)["id"]).lowercased()
            let key = "chat-exports/\(owner)/\(export.id.uuidString.lowercased()).mp4"
            if let bucket {
                // Kept in the bucket whole, nothing left of it on the worker's disk.
                #expect(try await bucket.size(of: key) == video.body.readableBytes)
                #expect(!FileManager.default.fileExists(atPath: config.dataDirectory.url.appendingPathComponent(key).path))
                let tail = try await app.send(.GET, try #require(export.video_url), token: ada, headers: ["Range": "bytes=-10"])
                #expect(tail.status == .partialContent && Data(tail.body.readableBytesView) == Data(video.body.readableBytesView.suffix(10)))
                let beyond = try await app.send(.GET, try #require(export.video_url), token: ada, headers: ["Range": "bytes=\(video.body.readableBytes)-"])
                #expect(beyond.status == .rangeNotSatisfiable)
            }

            // Deleting the chat takes its videos and ends the link.
            #expect(try await app.send(.DELETE, "/api/chat/conversations/\(chat)", token: ada).status == .noContent)
            if let bucket { #expect(try await bucket.size(of: key) == nil) }
            #expect(try await app.send(.GET, reshared).status == .notFound)
            #expect(try await app.send(.GET, "/api/chat/exports/\(export.id)", token: ada).status == .notFound)
        }
    }

    @Test("a store that is down: the export says so and waits; once the store answers, the same job keeps the video",
          .enabled(if: TestArtifacts.location != nil, "STORYVOICE_TEST_S3_URL is not set"))
    func storeOutage() async throws {
        let store = OutageStore(up: try #require(try await TestArtifacts.bucket.store()))
        try await withServer(adjust: { $0.artifacts = store }) { app, config, _ in
            let ada = try await app.register("ada@example.com").access_token
            let chat = try await app.createChat(ada)
            let export = try await app.startChatExport(chat, token: ada).content.decode(ChatExportReply.self)
            let worker = app.startWorker(config)
            defer { worker.cancel() }
            var seen = export
            while seen.error == nil {
                try await Task.sleep(for: .milliseconds(50))
                seen = try await app.send(.GET, "/api/chat/exports/\(export.id)", token: ada).content.decode(ChatExportReply.self)
            }
            // Between tries the export is queued; the next try may already be running (it keeps
            // the message until it ends). Either way the outage has not ended it.
            #expect(["queued", "running"].contains(seen.status), "a store outage must not end the export: \(seen.status)")
            #expect(seen.error?.contains("file store did not answer") == true && seen.error?.contains("tried again") == true, "\(seen.error ?? "")")
            #expect(seen.error?.contains("127.0.0.1") == false, "the user is told about the server's address")
            #expect(try await app.send(.GET, "/api/chat/conversations/\(chat)", token: ada).status == .ok)

            store.recover()
            let done = try await app.waitForJob(try #require(export.job_id), token: ada)
            #expect(done.status == "succeeded", "\(done.error ?? "")")
            let kept = try await app.send(.GET, "/api/chat/exports/\(export.id)", token: ada).content.decode(ChatExportReply.self)
            let video = try await app.send(.GET, try #require(kept.video_url), token: ada)
            #expect(video.status == .ok && video.body.readableBytes > 1_000)

            // Down again: the download says the video is safe and when to come back.
            store.fail()
            let later = try await app.send(.GET, try #require(kept.video_url), token: ada)
            #expect(later.status == .serviceUnavailable && later.errorCode == "store_unavailable" && later.headers.first(name: .retryAfter) == "30",
                    "\(later.status) \(later.body.string)")
        }
    }

    @Test("an export whose server died mid-way is claimed again once its lease ends and made from the start")
    func resumedAfterCrash() async throws {
        try await withServer { app, config, _ in
            let ada = try await app.register("ada@example.com").access_token
            let queued = try await app.startChatExport(try await app.createChat(ada), token: ada)
            let export = try queued.content.decode(ChatExportReply.self)
            // A server claims the job, starts the video and dies: no heartbeat, a partial file left.
            let queue = JobQueue(database: app.appDatabase)
            let claimed = try #require(try await queue.claim(workerID: "crashed", kinds: [ChatJobs.export], leaseDuration: 0.3))
            #expect(claimed.id == export.job_id)
            let owner = try #require(try await UserRepository(database: app.appDatabase).find(email: "ada@example.com")?.id)
            try await ChatExportRepository(database: app.appDatabase).update(export.id, ownerID: owner) { $0.status = "running"; $0.progress = 0.4 }
            let folder = config.dataDirectory.url.appendingPathComponent("chat-exports/\(owner.uuidString.lowercased())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let leftover = folder.appendingPathComponent(".\(export.id.uuidString.lowercased()).\(UUID().uuidString).partial.mp4")
            try Data("half a video".utf8).write(to: leftover)
            try await Task.sleep(for: .milliseconds(400))

            let finished = try await app.finishChatExport(queued, token: ada, config: config)
            #expect(finished.status == "succeeded", "\(finished.error ?? "")")
            #expect(try await app.send(.GET, "/api/jobs/\(claimed.id)", token: ada).json?["attempts"]?.doubleValue == 2)
            #expect(!FileManager.default.fileExists(atPath: leftover.path))
            let video = try await app.send(.GET, try #require(finished.video_url), token: ada)
            #expect(try VideoProbe.probe(Data(video.body.readableBytesView)).streams.contains { $0.codec_type == "video" })
        }
    }

    @Test("an export whose encoder is missing fails with a readable error, does not count, and leaves the chat as it was")
    func failure() async throws {
        try await withServer(adjust: { $0.chatFFmpegPath = "/nonexistent/ffmpeg" }) { app, config, _ in
            let ada = try await app.register("ada@example.com").access_token
            let chat = try await app.createChat(ada)
            let before = try await app.send(.GET, "/api/chat/conversations/\(chat)", token: ada).body.string
            let export = try await app.finishChatExport(try await app.startChatExport(chat, token: ada), token: ada, config: config)
            #expect(export.status == "failed")
            #expect(export.error?.contains("ffmpeg") == true && export.error?.contains("conversation is unchanged") == true, "\(export.error ?? "")")
            #expect(export.video_url == nil)
            let video = try await app.send(.GET, "/api/chat/exports/\(export.id)/video", token: ada)
            #expect(video.status == .conflict && video.errorCode == "export_failed")
            #expect(try await app.send(.POST, "/api/chat/exports/\(export.id)/share", token: ada).status == .conflict)
            #expect(try await app.send(.GET, "/api/chat/conversations/\(chat)", token: ada).body.string == before)
            #expect(try await app.send(.GET, "/api/chat/entitlement", token: ada).json?["exports_today"]?.doubleValue == 0)
        }
    }
}
