import ArgumentParser
import AsyncHTTPClient
import LanguageModels
import LocalModel

/// The model on this machine for one CLI run: its server starts on the first request and ends
/// with the process (it reads its standard input from us).
enum LocalModels {
    static let server: LocalModelServer? = LocalModelSetup.located().map { LocalModelServer(setup: $0) }

    /// The model a `--model` option names (`local`, `openai:MODEL`, …), with keys from the
    /// environment; a spec or key problem is said in the user's words.
    static func model(named text: String, option: String = "--model") throws -> (spec: ModelSpec, model: any LanguageModel) {
        let spec: ModelSpec
        do {
            spec = try ModelSpec(parsing: text)
        } catch {
            throw ValidationError("\(option) \(text): \(error)")
        }
        do {
            return (spec, try factory(httpClient: .vendors).makeModel(spec))
        } catch let error as LanguageModelError {
            throw UserFacingError(error.description)
        }
    }

    static func factory(httpClient: HTTPClient) -> LanguageModelFactory {
        LanguageModelFactory(httpClient: httpClient, local: server)
    }
}
