import Foundation
import Testing

/// `storyvoice serve` started from a directory that is not the checkout, with no
/// `STORYVOICE_PUBLIC_DIR`: the web app and the API description travel with the binary.
@Suite struct ServeAnywhereTests {
    @Test func theWebAppIsServedFromAnyWorkingDirectory() async throws {
        let scratch = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let elsewhere = scratch.appendingPathComponent("elsewhere", isDirectory: true)
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let server = ServerProcess(dataDirectory: scratch.appendingPathComponent("data"), workingDirectory: elsewhere)
        try await server.start()
        defer { server.kill() }

        let (page, pageStatus) = try await server.request("GET", "/")
        #expect(pageStatus == 200)
        #expect(String(decoding: page, as: UTF8.self).contains("<title>"))
        let (spec, specStatus) = try await server.request("GET", "/openapi.yaml")
        #expect(specStatus == 200)
        #expect(String(decoding: spec, as: UTF8.self).hasPrefix("openapi:"))
        let (script, scriptStatus) = try await server.request("GET", "/js/app.js")
        #expect(scriptStatus == 200)
        #expect(String(decoding: script, as: UTF8.self).contains("import "))
    }
}
