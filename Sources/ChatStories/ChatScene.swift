/// What the screen shows at one moment of a timeline.
public struct ChatScene: Sendable, Hashable {
    /// Messages 0..<sentCount are bubbles.
    public var sentCount = 0
    /// The message being typed in the input bar, and how many of its characters show.
    public var typing: (message: Int, count: Int)? {
        get { typingMessage.map { ($0, typingCount) } }
        set {
            typingMessage = newValue?.message
            typingCount = newValue?.count ?? 0
        }
    }
    /// Who is shown typing "…", if anyone.
    public var indicator: String?
    public var keyboard = false
    /// When the chat last began to follow a new message (for the scroll's movement).
    public var scrolledAtMS: Int?

    private var typingMessage: Int?
    private var typingCount = 0

    public init() {}

    mutating func apply(_ event: ChatTimelineEvent) {
        switch event.kind {
        case .indicatorShown(let character): indicator = character
        case .indicatorHidden: indicator = nil
        case .keyboardShown: keyboard = true
        case .keyboardHidden: keyboard = false
        case .typed(let message, let count): typing = (message, count)
        case .sent(let message):
            sentCount = max(sentCount, message + 1)
            if typingMessage == message { typing = nil }
        case .sound: break
        case .scroll: scrolledAtMS = event.atMS
        }
    }
}

/// Walks a timeline forward, giving the scene at each later moment in time proportional to
/// the events passed (a video's frames are read in order, never by searching).
public struct ChatSceneCursor: Sendable {
    private let events: [ChatTimelineEvent]
    private var next = 0
    public private(set) var scene = ChatScene()

    public init(_ timeline: ChatTimeline) {
        events = timeline.events
    }

    /// The scene at `ms`, which must not be earlier than the last moment asked for.
    public mutating func scene(atMS ms: Int) -> ChatScene {
        while next < events.count, events[next].atMS <= ms {
            scene.apply(events[next])
            next += 1
        }
        return scene
    }
}
