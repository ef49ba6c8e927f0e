// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "StoryVoice",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "storyvoice", targets: ["storyvoice"]),
        .library(name: "StoryModel", targets: ["StoryModel"]),
        .library(name: "StoryText", targets: ["StoryText"]),
        .library(name: "Narration", targets: ["Narration"]),
        .library(name: "LanguageModels", targets: ["LanguageModels"]),
        .library(name: "Analysis", targets: ["Analysis"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // jwt-kit 5.8 (which vapor/jwt 5.2.0 resolves to) needs swift-crypto 4; 3.x is kept allowed for the others.
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // Server: Vapor and Fluent (Vapor only in StoryServer; FluentKit and drivers below it).
        .package(url: "https://github.com/vapor/vapor", from: "4.122.3"),
        .package(url: "https://github.com/vapor/fluent", from: "4.13.0"),
        .package(url: "https://github.com/vapor/fluent-kit", from: "1.57.0"),
        .package(url: "https://github.com/vapor/fluent-sqlite-driver", from: "4.9.0"),
        .package(url: "https://github.com/vapor/fluent-postgres-driver", from: "2.14.0"),
        .package(url: "https://github.com/vapor/jwt", from: "5.2.0"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/vapor/websocket-kit", from: "2.16.2"),
        // Tests only: StoryServerTests reads Public/openapi.yaml to check real replies against it.
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
    ],
    targets: [
        // Value types shared by every module. Foundation only, no I/O.
        .target(name: "StoryModel"),
        // Import, chapters, quotes, characters and speaker attribution: pure and fast.
        .target(
            name: "StoryText",
            dependencies: [
                "StoryModel",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        // Long-lived JSON-lines workers (Piper, Whisper, the local language model) and the one
        // executable look-up.
        .target(name: "ProcessWorkers", dependencies: ["StoryModel"]),
        // PCM, WAV, pauses, loudness, ffmpeg encoding, chapters, timing maps, captions.
        .target(
            name: "Audio",
            dependencies: [
                "StoryModel", "ProcessWorkers",
            ]
        ),
        // Speech interfaces, the voice catalogue and casting.
        .target(name: "Speech", dependencies: ["StoryModel", "Audio"]),
        // Live local engines (espeak-ng, flite, festival), each a separate process.
        .target(
            name: "SpeechEngines",
            dependencies: [
                "StoryModel", "Audio", "Speech", "ProcessWorkers",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Story -> rendered audio: plan, synthesize in parallel with a cache, assemble, encode.
        .target(
            name: "Narration",
            dependencies: [
                "StoryModel", "Audio", "Speech",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // One HTTP layer for every vendor: transport, retries honouring Retry-After, secrets,
        // concurrency limits, failures spelled for any vendor, the vendor id.
        .target(
            name: "VendorHTTP",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // S3-compatible object storage (issue 52): the Signature Version 4 signer and a bucket's client.
        // What a use case tells a person when it refuses: a stable code, words, and a kind every
        // product shares, mapped to HTTP in one place (issue 50).
        .target(name: "Problems"),
        .target(name: "ObjectStorage", dependencies: [
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
        ]),
        .testTarget(name: "BootstrapTests", dependencies: [
            "Bootstrap", "StoryWorkflows", "ChatWorkflows", "JourneyWorkflows", "CallWorkflows", "LanguageModels", "Persistence",
        ]),
        .testTarget(name: "PlatformTests", dependencies: [
            "Platform", "Persistence", "LanguageModels", "DatabaseTestSupport", .product(name: "Crypto", package: "swift-crypto"),
        ]),
        .testTarget(name: "VoiceWorkflowsTests", dependencies: ["Platform", "VoiceWorkflows", "VoiceChat"]),
        .testTarget(name: "StoryWorkflowsTests", dependencies: [
            "Platform", "StoryWorkflows", "ObjectStorage", "Persistence", "DatabaseTestSupport",
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        .testTarget(name: "ObjectStorageTests", dependencies: [
            "ObjectStorage", .product(name: "Crypto", package: "swift-crypto"), .product(name: "NIOCore", package: "swift-nio"),
        ]),
        // Language-model interface and live clients: OpenAI, Anthropic, Gemini, OpenAI-compatible.
        .target(
            name: "LanguageModels",
            dependencies: [
                "VendorHTTP",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The language model on this machine: its files, and the llama.cpp server StoryVoice
        // starts on demand (scripts/local-model.py) behind `LanguageModels.LocalModelHost`.
        .target(
            name: "LocalModel",
            dependencies: [
                "LanguageModels", "VendorHTTP", "ProcessWorkers",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Voice chat: one spoken turn (transcribe, reply, speak each sentence as it is written)
        // as a stream of events, its effects injected. The AI phone calls' agent uses it too.
        .target(
            name: "VoiceChat",
            dependencies: ["LanguageModels", "Audio"]
        ),
        // Chat stories: conversations, their validation and the video timeline. Pure, Foundation only.
        .target(name: "ChatStories", dependencies: ["StoryModel"]),
        // Cairo and Pango from Debian's packages, for ChatFrames only.
        .systemLibrary(
            name: "CCairoPango",
            pkgConfig: "pangocairo",
            providers: [.apt(["libpango1.0-dev", "libcairo2-dev"])]
        ),
        // A chat story's frames drawn with Cairo/Pango, and converted to YUV for the encoder.
        // Synchronous code only, optimised in debug builds too: unoptimised, the per-pixel
        // colour conversion made a test build's exports three times slower than real time.
        .target(
            name: "ChatFrames",
            dependencies: ["ChatStories", "CCairoPango"],
            swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]
        ),
        // A chat story as an MP4: its frames raw into ffmpeg, with the message sounds.
        .target(
            name: "ChatVideo",
            dependencies: [
                "ChatStories", "ChatFrames", "Audio",
            ]
        ),
        // Cloud speech engines (OpenAI, ElevenLabs, Gemini) over the vendor HTTP layer.
        .target(
            name: "CloudSpeech",
            dependencies: [
                "StoryModel", "Audio", "Speech", "VendorHTTP",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Hybrid (heuristic + language model) speaker labelling, character enrichment, cost estimates.
        .target(
            name: "Analysis",
            dependencies: [
                "StoryModel", "LanguageModels", "VendorHTTP",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Journeys' pure core: places, travel modes, routes, the plan (parts, words per part, the
        // 4-hour limit), the buffering policy, the offline estimate; the Geocoder and Router interfaces.
        .target(name: "Journeys", dependencies: ["Problems"]),
        // Journeys' live services over the vendor HTTP layer (OSRM router, Nominatim geocoder) and
        // the offline gazetteer scripts/setup installs.
        .target(
            name: "JourneyServices",
            dependencies: [
                "Journeys", "VendorHTTP", "ProcessWorkers",
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Loopback servers that speak vendors' wire formats, and test helpers.
        .target(
            name: "TestSupport",
            dependencies: [
                "LanguageModels", "VendorHTTP", "StoryModel",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "WebSocketKit", package: "websocket-kit"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Fluent models, migrations and repositories; SQLite or PostgreSQL; no Vapor.
        .target(
            name: "Persistence",
            dependencies: [
                "StoryModel", "VendorHTTP",
                .product(name: "FluentKit", package: "fluent-kit"),
                .product(name: "FluentSQL", package: "fluent-kit"),
                .product(name: "FluentSQLiteDriver", package: "fluent-sqlite-driver"),
                .product(name: "FluentPostgresDriver", package: "fluent-postgres-driver"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // Database-backed job queue (claim with a lease, heartbeat, retry with backoff) and workers.
        .target(
            name: "Jobs",
            dependencies: [
                "Persistence", "StoryModel",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The platform under every product's use cases (issue 50): the signed-in user's context,
        // their language models, their voices and this machine's speech, the one error type, the
        // file store's refusal. No product's logic, no Vapor.
        .target(
            name: "Platform",
            dependencies: [
                "StoryModel", "Audio", "Speech", "SpeechEngines", "CloudSpeech", "Narration", "LanguageModels", "VendorHTTP",
                "Persistence", "ObjectStorage", "Problems",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The stories use cases and their job handlers: what the CLI, the server and
        // `storyvoice worker` share. No Vapor.
        .target(
            name: "StoryWorkflows",
            dependencies: [
                "Platform",
                "StoryModel", "StoryText", "Audio", "Speech", "Narration", "LanguageModels", "VendorHTTP",
                "Analysis", "Persistence", "Jobs", "ProcessWorkers", "ObjectStorage",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        // Voice chat for a signed-in user: transcriber, model and voice chosen, turns run. No Vapor.
        .target(
            name: "VoiceWorkflows",
            dependencies: [
                "VoiceChat", "Platform", "StoryModel", "LanguageModels", "Audio", "Speech", "Persistence", "CloudSpeech", "VendorHTTP",
            ]
        ),
        // Chat stories for a signed-in user: conversations kept, videos made as jobs and shared,
        // the free and premium plans enforced. No Vapor.
        .target(
            name: "ChatWorkflows",
            dependencies: [
                "ChatStories", "ChatVideo", "Audio", "Persistence", "Jobs", "Platform", "LanguageModels", "StoryModel", "ObjectStorage",
            ]
        ),
        // Journeys for a signed-in user: the story planned, written and voiced part by part as
        // jobs ahead of the listener, kept, exported. No Vapor.
        .target(
            name: "JourneyWorkflows",
            dependencies: [
                "Journeys", "JourneyServices", "StoryModel", "Audio", "Speech", "Persistence", "Jobs", "Platform", "LanguageModels", "VoiceChat", "VendorHTTP",
                "ObjectStorage",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // AI phone calls' pure core: plans and usage as functions of (plan history, calls, now),
        // the scenarios and their voices, phone numbers, Twilio's request signature and the
        // Media Streams messages.
        .target(
            name: "Calls",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")]
        ),
        // App Store purchases: StoreKit 2 signed transactions and server notifications verified
        // offline (x5c chain to the pinned Apple Root CA - G3, Apple's OIDs, ES256), and the
        // App Store Server API client.
        .target(
            name: "AppStore",
            dependencies: [
                "VendorHTTP",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("AppleRootCA-G3.cer")]
        ),
        // Tests only: a CA shaped like Apple's (Apple's OIDs, made at test time) that signs
        // StoreKit 2 transactions and notifications as Apple does, and the tampered ones.
        .target(
            name: "AppStoreTestSupport",
            dependencies: [
                "AppStore",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // Telephony's live parts: Twilio's REST API, the media-stream session bridged to the
        // OpenAI Realtime API or to the voice loop on this machine.
        .target(
            name: "Telephony",
            dependencies: [
                "Calls", "VendorHTTP", "VoiceChat", "LanguageModels", "Audio", "StoryModel",
                .product(name: "WebSocketKit", package: "websocket-kit"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // AI phone calls for a signed-in mobile user: usage, permission, calls placed and
        // ended, schedules, purchases and App Store notifications. No Vapor.
        .target(
            name: "CallWorkflows",
            dependencies: [
                "Calls", "Telephony", "AppStore", "Persistence", "Jobs", "VendorHTTP", "Platform", "StoryModel", "Speech", "Audio",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The Vapor server: configure(app, config), auth, thin controllers, web assets.
        // One bootstrap (issue 50): the live parts every process builds from its environment,
        // and the one registry of every product's jobs, for `serve` and `worker` alike. No Vapor.
        .target(
            name: "Bootstrap",
            dependencies: [
                "Platform",
                "StoryWorkflows", "ChatWorkflows", "JourneyWorkflows", "CallWorkflows", "Jobs", "LanguageModels", "ObjectStorage", "Persistence",
            ]
        ),
        .target(
            name: "StoryServer",
            dependencies: [
                "Platform",
                "StoryModel", "StoryText", "Persistence", "Jobs", "Analysis", "LanguageModels", "VendorHTTP", "StoryWorkflows",
                "Speech", "VoiceChat", "VoiceWorkflows", "ChatStories", "ChatWorkflows", "Journeys", "JourneyServices", "JourneyWorkflows",
                "Calls", "Telephony", "CallWorkflows", "ObjectStorage", "Bootstrap", "Problems",
                .product(name: "Vapor", package: "vapor"),
                .product(name: "Fluent", package: "fluent"),
                .product(name: "JWT", package: "jwt"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "storyvoice",
            dependencies: [
                "Platform",
                "StoryModel", "StoryText", "Audio", "Speech", "SpeechEngines", "Narration", "LanguageModels", "VendorHTTP", "Analysis",
                "StoryServer", "StoryWorkflows", "Jobs", "Persistence", "LocalModel", "ChatStories", "ChatVideo", "ChatWorkflows", "Journeys", "JourneyServices", "JourneyWorkflows",
                "ObjectStorage", "Bootstrap", "ProcessWorkers",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "StoryModelTests", dependencies: ["StoryModel"]),
        .testTarget(name: "ChatStoriesTests", dependencies: ["ChatStories"], exclude: ["Goldens"]),
        .testTarget(name: "JourneysTests", dependencies: ["Journeys"]),
        .testTarget(name: "CallsTests", dependencies: ["Calls"]),
        .testTarget(name: "AppStoreTests", dependencies: [
            "AppStore", "AppStoreTestSupport", "VendorHTTP", "TestSupport",
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "TelephonyTests", dependencies: [
            "Telephony", "Calls", "VendorHTTP", "TestSupport", "LanguageModels", "Audio",
            .product(name: "WebSocketKit", package: "websocket-kit"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "CallWorkflowsTests", dependencies: [
            "CallWorkflows", "AppStore", "AppStoreTestSupport", "DatabaseTestSupport", "Persistence", "Platform",
        ]),
        .testTarget(name: "JourneyServicesTests", dependencies: [
            "JourneyServices", "Journeys", "VendorHTTP", "TestSupport",
        ]),
        .testTarget(name: "JourneyWorkflowsTests", dependencies: [
            "JourneyWorkflows", "Journeys", "LanguageModels", "VendorHTTP", "TestSupport",
            "Audio", "Speech", "SpeechEngines",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "ChatVideoTests", dependencies: ["ChatVideo", "ChatFrames", "ChatStories", "Audio"]),
        .testTarget(name: "ChatWorkflowsTests", dependencies: [
            "ChatWorkflows", "ChatStories", "LanguageModels", "VendorHTTP", "TestSupport", .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "StoryTextTests", dependencies: ["StoryText", "StoryModel", "TestSupport", .product(name: "ZIPFoundation", package: "ZIPFoundation")]),
        .testTarget(name: "AudioTests", dependencies: ["Audio", "StoryModel"]),
        .testTarget(name: "SpeechTests", dependencies: ["Speech", "StoryModel", "Audio", "TestSupport"]),
        .testTarget(name: "SpeechEnginesTests", dependencies: ["SpeechEngines", "Speech", "Audio", "StoryModel", "ProcessWorkers"]),
        // Runs the built `storyvoice` binary as a user would.
        .testTarget(name: "StoryVoiceCLITests", dependencies: [
            "Audio", "StoryModel", "TestSupport", "LanguageModels", "VendorHTTP", "DatabaseTestSupport", "ObjectStorage", "ProcessWorkers",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"),
        ]),
        .testTarget(name: "VoiceChatTests", dependencies: [
            "VoiceChat", "LanguageModels", "VendorHTTP", "Audio", "Speech", "SpeechEngines", "TestSupport",
        ]),
        // The real model on this machine (scripts/setup installs it).
        .testTarget(name: "LocalModelTests", dependencies: [
            "LocalModel", "LanguageModels", "VendorHTTP", "ProcessWorkers", .product(name: "AsyncHTTPClient", package: "async-http-client"),
        ]),
        .testTarget(name: "LanguageModelsTests", dependencies: ["LanguageModels", "VendorHTTP", "TestSupport", .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "CloudSpeechTests", dependencies: ["CloudSpeech", "Speech", "Audio", "LanguageModels", "VendorHTTP", "TestSupport", "StoryModel", .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "AnalysisTests", dependencies: ["Analysis", "LanguageModels", "VendorHTTP", "TestSupport", "StoryModel", "StoryText", .product(name: "Logging", package: "swift-log")]),
        // Fresh SQLite or PostgreSQL databases for the database test suites.
        .target(
            name: "DatabaseTestSupport",
            dependencies: [
                "Persistence",
                .product(name: "FluentKit", package: "fluent-kit"),
                .product(name: "FluentSQL", package: "fluent-kit"),
            ]
        ),
        .testTarget(
            name: "PersistenceTests",
            dependencies: [
                "Persistence", "DatabaseTestSupport",
                .product(name: "FluentKit", package: "fluent-kit"),
                .product(name: "FluentSQL", package: "fluent-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "JobsTests",
            dependencies: [
                "Jobs", "Persistence", "DatabaseTestSupport",
            ]
        ),
        .testTarget(
            name: "StoryServerTests",
            dependencies: [
                "Platform",
                "StoryServer", "StoryWorkflows", "Persistence", "Jobs", "DatabaseTestSupport", "TestSupport", "LanguageModels", "VendorHTTP", "Speech", "StoryModel", "StoryText", "Narration", "SpeechEngines", "Audio",
                "ChatWorkflows", "Journeys", "JourneyWorkflows", "Calls", "CallWorkflows", "Telephony", "AppStore", "AppStoreTestSupport",
                "ObjectStorage",
                .product(name: "VaporTesting", package: "vapor"),
                .product(name: "FluentKit", package: "fluent-kit"),
                .product(name: "FluentSQL", package: "fluent-kit"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "JWT", package: "jwt"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .testTarget(name: "NarrationTests", dependencies: ["Narration", "SpeechEngines", "Speech", "Audio", "StoryText", "StoryModel", "StoryWorkflows", "ObjectStorage"]),
    ],
    swiftLanguageModes: [.v6]
)
