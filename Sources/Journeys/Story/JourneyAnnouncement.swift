import Foundation

/// The line a journey's audio begins with, as an audiobook says its title: the kind of story
/// and the trip it was made for, with the places used ("A fantasy story for your 13-minute walk
/// from Oxford to Headington."). It is written here, not by the model, so it is voiced the
/// moment the listener presses start, while the model on this machine still reads the opening's
/// prompt (about 3 s on two cores); it is heard, shown and exported with part 1, and never
/// given back to the model as part of the story.
public enum JourneyAnnouncement {
    public static func text(for plan: JourneyPlan, style: StoryStyle) -> String {
        "\(kind(of: style)) for your \(length(of: plan.route.durationSeconds)) \(noun(of: plan.mode)) \(TripWords.trip(from: plan.start, to: plan.end))."
    }

    static func kind(of style: StoryStyle) -> String {
        switch style.kind {
        case .noir: "A noir mystery"
        case .childrens: "A children’s story"
        case .historical: "A historical story"
        case .fantasy: "A fantasy story"
        case .custom: "Your story"
        }
    }

    /// "13-minute", "1-hour", "3-hour": as long as the trip, rounded as a person says it.
    static func length(of seconds: Double) -> String {
        let minutes = max(1, Int((seconds / 60).rounded()))
        if minutes < 90 { return "\(minutes)-minute" }
        return "\(Int((Double(minutes) / 60).rounded()))-hour"
    }

    static func noun(of mode: TravelMode) -> String {
        switch mode {
        case .walking: "walk"
        case .cycling: "ride"
        case .driving: "drive"
        }
    }
}
