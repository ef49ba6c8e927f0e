import Foundation
import LanguageModels
import Testing
import TestSupport
import VendorHTTP

@Suite("Secrets")
struct SecretTests {
    @Test("A key never appears in descriptions, dumps, errors or log lines", arguments: [Provider.openai, .anthropic, .gemini])
    func keyNeverLeaks(provider: Provider) async throws {
        let secret = Secret(testKey)
        #expect(!"\(secret)".contains(testKey))
        #expect(!String(reflecting: secret).contains(testKey))
        var dumped = ""
        dump(secret, to: &dumped)
        #expect(!dumped.contains(testKey))

        let capture = LogCapture()
        try await LoopbackServer.withServer(handler: answering(provider, #"{"word":"hi","note":null}"#)) { server in
            // A 401 that echoes the key, as some vendors do (whole or shortened), then success.
            server.enqueue(VendorWire.error(provider, status: 401, message: "Incorrect API key provided: \(testKey) (\(testKey.prefix(10))***\(testKey.suffix(4)))"))
            let model = makeModel(provider, server: server, logger: capture.logger())
            #expect(!String(describing: model).contains(testKey))
            #expect(!String(reflecting: model).contains(testKey))

            let error = try await #require(throws: LanguageModelError.self) { try await model.complete(structuredRequest) }
            #expect(error.kind == .invalidKey)
            #expect(!error.description.contains(testKey))
            #expect(!(error.detail ?? "").contains(testKey))
            #expect(!(error.detail ?? "").contains(String(testKey.prefix(10))))
            #expect(!String(reflecting: error).contains(testKey))

            _ = try await model.complete(structuredRequest)
            #expect(server.requests.count == 2)
        }
        let factory = LanguageModelFactory(environment: ["OPENAI_API_KEY": testKey, "GEMINI_API_KEY": testKey])
        var factoryDump = ""
        dump(factory, to: &factoryDump, maxDepth: 3)
        #expect(!factoryDump.contains(testKey))
        #expect(!String(reflecting: factory).contains(testKey))
        #expect(capture.count >= 4)
        #expect(!capture.text.contains(testKey))
        #expect(!capture.text.contains(String(testKey.prefix(10))))
    }
}
