import AsyncHTTPClient
import LanguageModels
import LocalModel

/// The model on this machine for one CLI run: its server starts on the first request and ends
/// with the process (it reads its standard input from us).
enum LocalModels {
    static let server: LocalModelServer? = LocalModelSetup.located().map { LocalModelServer(setup: $0) }

    static func factory(httpClient: HTTPClient) -> LanguageModelFactory {
        LanguageModelFactory(httpClient: httpClient, local: server)
    }
}
