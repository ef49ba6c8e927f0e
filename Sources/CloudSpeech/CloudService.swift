import VendorHTTP
import Speech
import VendorHTTP

/// The cloud speech vendors (a subset of `Vendor`): the engine id, key and base-URL variables, public endpoint and the
/// longest text one request may carry.
public enum CloudService: String, Sendable, Hashable, CaseIterable, Codable {
    case openai
    case elevenlabs
    case gemini

    /// The engine id that prefixes its voice ids (`openai:onyx`, `elevenlabs:<voice_id>`, `gemini:Kore`).
    public var engineID: String { rawValue }

    /// The vendor it is (names, key and base-URL variables, endpoint).
    public var vendor: Vendor { Vendor(rawValue: rawValue) ?? .openai }
    public var displayName: String { vendor.displayName }
    /// Shared with the language-model clients for OpenAI and Gemini.
    public var apiKeyVariable: String { vendor.apiKeyVariable }
    public var baseURLVariable: String { vendor.baseURLVariable ?? "" }
    /// OpenAI's includes `/v1`, as `OPENAI_BASE_URL` conventionally does (a base without `/v1`
    /// gets it added); the others have no version path.
    public var defaultBaseURL: String { vendor.defaultBaseURL ?? "" }

    /// Characters (Unicode scalars) sent in one request; longer text is cut on sentence
    /// boundaries and the pieces' audio joined. OpenAI documents 4,096 for `input`. ElevenLabs
    /// accepts 10,000 (multilingual v2) to 40,000 (flash v2.5); 5,000 is under every model's
    /// limit and its web app's. Gemini's TTS models take 8,192 input tokens but answer at most
    /// 16,384 audio tokens (25 a second, about 11 minutes); 4,000 characters is about 5 minutes.
    public var characterLimit: Int {
        switch self {
        case .openai: 4096
        case .elevenlabs: 5000
        case .gemini: 4000
        }
    }

    /// What `doctor` shows for the engine speaking `model`: installed only with a key. The
    /// version is the model, so changing model re-renders cached lines.
    public func engineInfo(model: String, hasKey: Bool) -> EngineInfo {
        let product = switch self {
        case .openai: "OpenAI TTS"
        case .elevenlabs: "ElevenLabs"
        case .gemini: "Gemini TTS"
        }
        let extra = self == .openai ? " (and OPENAI_BASE_URL for a compatible server)" : ""
        return EngineInfo(
            id: engineID, name: "\(product) (\(model))", version: model, installed: hasKey,
            installHint: "Add \(self == .openai ? "an" : "a") \(displayName) key in Settings or set \(apiKeyVariable)\(extra)."
        )
    }

    /// Requests in flight at once per vendor, by default. ElevenLabs' plans allow 2 (free) to
    /// 5+ concurrent requests; Gemini's TTS previews have low request-per-minute limits.
    public var defaultConcurrency: Int {
        switch self {
        case .openai: 4
        case .elevenlabs: 2
        case .gemini: 2
        }
    }
}

/// Why a cloud speech request failed, in words a user can act on. The kinds are the language
/// models' (``VendorFailure/Kind``), explained the same way; the description never
/// contains a key.
public struct CloudSpeechError: Error, Sendable, Hashable, CustomStringConvertible {
    public var kind: VendorFailure.Kind
    public var service: CloudService
    /// The model, or the voice when the failure is about the voice.
    public var model: String
    public var detail: String?

    public init(_ kind: VendorFailure.Kind, service: CloudService, model: String, detail: String? = nil) {
        self.kind = kind
        self.service = service
        self.model = model
        self.detail = detail
    }

    init(_ failure: VendorFailure, service: CloudService, model: String) {
        self.init(failure.kind, service: service, model: model, detail: failure.detail)
    }

    /// Whether waiting and sending again may succeed.
    public var isTransient: Bool { kind.isTransient }

    /// "ElevenLabs speech: the ElevenLabs key was rejected — update it in Settings or ELEVENLABS_API_KEY".
    public var description: String {
        let name = service.displayName
        let explanation: String = switch kind {
        case .noAccess(status: 404):
            "\(name) has no voice or model “\(model)” for this key — run 'storyvoice voices' and choose another voice, or check the model name"
        case .noAccess:
            "this \(name) key may not use “\(model)” — check the key's permissions (text to speech, voices) and your plan, or choose another voice"
        default:
            VendorFailure.explain(kind, service: name, keyVariable: service.apiKeyVariable, model: model, detail: detail)
        }
        return "\(name) speech: \(explanation)"
    }
}
