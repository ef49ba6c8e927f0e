import StoryModel

/// Closed word classes of English fiction that the heuristics key on.
enum Lexicon {
    /// Verbs that introduce or tag speech ("said", "cried", "replied" ...), in every form used in tags.
    static let speechVerbs: Set<String> = listedSpeechVerbs.union(firstPersonSpeechVerbs.map(thirdPerson))

    /// Present-tense tags of stories told in the present ("I say"; with "-s", "Sam mutters",
    /// "Jess laughs"). Alone only after "I": "heard him say," is no tag.
    static let firstPersonSpeechVerbs: Set<String> = [
        "say", "ask", "reply", "answer", "exclaim", "add", "whisper", "shout", "mutter", "murmur", "retort", "respond",
        "repeat", "interrupt", "inquire", "demand", "declare", "protest", "suggest", "plead", "insist", "explain",
        "stammer", "sob", "sigh", "laugh", "groan", "gasp", "scream", "snap", "growl", "sneer", "admit", "agree",
        "venture", "muse", "hiss", "roar", "yell", "wail", "moan", "warn", "tell", "announce", "confess", "chuckle",
        "grin", "echo", "grumble", "mumble", "complain", "comment", "sniff", "snort", "scoff", "tease", "blurt",
        "shriek", "squeal", "howl", "snarl", "grunt", "stutter", "croak", "whimper", "giggle", "counter", "quip",
    ]

    private static func thirdPerson(_ verb: String) -> String {
        if verb.hasSuffix("y"), !verb.hasSuffix("ay") { return verb.dropLast() + "ies" }
        if ["s", "sh", "ch", "x", "o"].contains(where: verb.hasSuffix) { return verb + "es" }
        return verb + "s"
    }

    /// Every form written out, past and present ("said", "says", "saying").
    private static let listedSpeechVerbs: Set<String> = [
        "said", "says", "saying", "quoth", "cried", "cries", "asked", "asks", "replied", "replies", "answered", "answers",
        "exclaimed", "exclaims", "returned", "continued", "continues", "added", "adds", "observed", "remarked",
        "whispered", "whispers", "shouted", "shouts", "called", "calls", "muttered", "mutters", "murmured", "murmurs",
        "began", "begins", "went", "rejoined", "retorted", "responded", "resumed", "repeated", "interrupted",
        "inquired", "enquired", "demanded", "declared", "protested", "suggested", "urged", "pleaded", "begged",
        "insisted", "explained", "stammered", "sobbed", "sighed", "laughed", "groaned", "gasped", "screamed",
        "snapped", "growled", "sneered", "admitted", "agreed", "assented", "ventured", "persisted", "pursued",
        "concluded", "observed", "mused", "thought", "wondered", "reflected", "faltered", "breathed", "hissed",
        "roared", "yelled", "bawled", "wailed", "moaned", "cautioned", "warned", "commanded", "ordered", "told",
        "announced", "stated", "remonstrated", "objected", "acknowledged", "confessed", "conceded", "corrected",
        "explained", "reminded", "promised", "assured", "answered", "chimed", "put", "broke", "struck", "cut",
        "queried", "questioned", "gushed", "drawled", "lisped", "piped", "panted", "chuckled", "smiled", "grinned",
        "nodded", "shrugged", "uttered", "spoke", "speaks", "remarks", "observes", "replied", "echoed", "ejaculated",
        "expostulated", "returned", "proceeded", "resumed", "interposed", "rejoins", "soliloquized", "scolded",
        "entreated", "implored", "volunteered", "hazarded", "reasoned", "argued", "complained", "grumbled", "mumbled",
        "added", "called",
        "replying", "answering", "crying", "exclaiming", "adding", "asking", "whispering", "continuing", "returning",
        // Manner-of-speaking verbs ("corroborated Flora Jane", "asserted the Colonel", "sniffed Marilla").
        "asserted", "affirmed", "averred", "maintained", "corroborated", "confirmed", "commented", "confided", "proclaimed",
        "reiterated", "interjected", "countered", "conjectured", "surmised", "mourned", "lamented", "wept", "sniffed",
        "snorted", "scoffed", "jeered", "taunted", "teased", "blurted", "prattled", "chattered", "babbled",
        "vociferated", "thundered", "stormed", "fumed", "raged", "puffed", "shrieked", "screeched", "squealed", "howled",
        "snarled", "barked", "grunted", "stuttered", "spluttered", "sputtered", "croaked", "wheezed", "whimpered",
        "giggled", "tittered", "simpered", "coaxed", "soothed", "acquiesced", "requested", "instructed", "proposed",
        "shouting", "sobbing", "murmuring", "muttering", "screaming", "calling", "remarking", "observing", "declaring",
    ]

    /// Speech verbs that say something only with their particle ("he struck in", "she went on").
    static let speechParticles: [String: Set<String>] = [
        "put": ["in"], "struck": ["in"], "cut": ["in", "short"], "chimed": ["in"], "went": ["on"],
    ]

    /// Particles a speech verb takes before its subject ("called out Pooh", "broke in Mary").
    static let tagParticles: [String: Set<String>] = speechParticles.merging([
        "called": ["out", "back"], "cried": ["out"], "shouted": ["out", "back"], "broke": ["in"], "sang": ["out"],
        "piped": ["up"], "yelled": ["out", "back"], "bawled": ["out"], "snapped": ["back"], "whispered": ["back"],
        "answered": ["back"], "roared": ["out"], "screamed": ["out"],
    ]) { required, _ in required }

    /// Speech verbs that also tell of things going on ("The rain continued fast"): before them
    /// only a noun of people is a speaker.
    static let continuingVerbs: Set<String> = ["continued", "continues", "began", "begins", "went", "resumed", "proceeded", "pursued", "persisted", "returned", "broke", "added"]

    /// Words that may sit between a tag's subject and its verb ("she had said", "he then added").
    static let tagFillers: Set<String> = ["had", "has", "have", "was", "is", "then", "now", "again", "at", "once", "also", "only", "still", "would", "could", "did", "presently", "afterwards", "quietly", "softly", "gravely", "slowly"]

    static let abbreviations: Set<String> = ["mr", "mrs", "ms", "dr", "st", "mlle", "mme", "messrs", "rev", "capt", "col", "gen", "lt", "prof", "sr", "jr", "m"]

    /// Titles before names, with the gender they imply (nil: either).
    static let honorifics: [String: Gender?] = [
        "mr": .male, "mister": .male, "sir": .male, "lord": .male, "master": .male, "monsieur": .male, "herr": .male,
        "signor": .male, "senor": .male, "uncle": .male, "father": .male, "brother": .male, "king": .male, "prince": .male,
        "count": .male, "baron": .male, "duke": .male, "earl": .male, "marquis": .male, "reverend": .male, "rev": .male,
        "mrs": .female, "miss": .female, "ms": .female, "lady": .female, "madame": .female, "mme": .female, "madam": .female,
        "mademoiselle": .female, "mlle": .female, "aunt": .female, "auntie": .female, "mother": .female, "sister": .female,
        "queen": .female, "princess": .female, "countess": .female, "baroness": .female, "duchess": .female,
        "mistress": .female, "dame": .female, "frau": .female, "fraulein": .female, "signora": .female, "senora": .female,
        "dr": nil, "doctor": nil, "captain": nil, "capt": nil, "colonel": nil, "col": nil, "general": nil, "gen": nil,
        "major": nil, "lieutenant": nil, "lt": nil, "professor": nil, "prof": nil, "judge": nil, "cousin": nil,
        "grandma": .female, "granny": .female, "grandpa": .male, "granddad": .male, "saint": nil, "st": nil, "mamma": .female,
        "papa": .male, "m": .male,
        // As dialect writes them ("Marse Maurice", "Mistah Thomas", "Miz Hamilton").
        "marse": .male, "massa": .male, "mistah": .male, "miz": .female,
    ].merging(ranks.map { ($0, Gender?.none) }) { written, _ in written }

    /// Police, naval and church ranks: titles of names ("Inspector Athelney Jones", "Admiral
    /// Croft"), roles alone ("said the inspector"), men by the period's convention.
    static let ranks: [String] = ["inspector", "sergeant", "superintendent", "detective", "corporal", "admiral",
                                  "commander", "commodore", "bishop", "archdeacon", "squire"]

    /// Titles that are male by convention when nothing else is known (officers, doctors, clergy of the period).
    static let defaultMaleTitles: Set<String> = Set(["dr", "doctor", "captain", "capt", "colonel", "col", "general", "gen", "major", "lieutenant", "lt",
                                                     "professor", "prof", "judge", "reverend", "rev"] + ranks)

    /// Honorifics that go before a given name rather than a surname ("Aunt Josephine", "Sir Thomas").
    static let givenNameTitles: Set<String> = ["marse", "massa", "sir", "lady", "aunt", "auntie", "uncle", "cousin", "master", "mistress", "brother", "sister", "father", "mother", "king", "queen", "prince", "princess", "saint", "st", "dame", "grandma", "granny", "grandpa"]

    /// Words that name what follows rather than say it, when the quote comes right after them:
    /// `called 'carrots'`, `was named "the house"`, `to recite 'Mary, Queen of Scots'`,
    /// `labelled "Best Vanilla"`.
    static let namingWords: Set<String> = [
        "called", "calling", "call", "named", "termed", "dubbed", "christened", "nicknamed", "entitled", "titled",
        "recite", "recited", "reciting", "sing", "singing", "sang", "sung", "spelled", "spelling", "spelt",
        "labelled", "labeled", "marked", "signed",
    ]

    /// Words a call by name may carry after it ("Anny dear, …").
    static let endearments: Set<String> = ["dear", "darling"]

    static let malePronouns: Set<String> = ["he", "him", "his", "himself"]
    static let femalePronouns: Set<String> = ["she", "her", "hers", "herself"]
    /// "its", "itself": what the narration calls something it does not give a sex.
    static let neuterPronouns: Set<String> = ["its", "itself"]

    /// Nouns of nationality ("the Frenchman", "an Englishwoman"), capitalised as names are but
    /// never a person's name: "Master Frenchman" is the Frenchman addressed, not a boy so called.
    static let nationalityNouns: [String: Gender] = [
        "frenchman": .male, "frenchwoman": .female, "englishman": .male, "englishwoman": .female,
        "irishman": .male, "irishwoman": .female, "scotchman": .male, "scotsman": .male, "scotswoman": .female,
        "welshman": .male, "welshwoman": .female, "dutchman": .male, "dutchwoman": .female, "chinaman": .male,
        "russian": .male, "pole": .male, "german": .male, "spaniard": .unknown, "italian": .unknown,
        "american": .unknown, "austrian": .unknown, "prussian": .unknown, "swede": .unknown, "dane": .unknown,
        "turk": .unknown, "greek": .unknown, "norwegian": .unknown, "hungarian": .unknown, "belgian": .unknown,
    ]

    /// "the frenchman" as English writes it: "the Frenchman".
    static func capitalisingNationalities(_ phrase: String) -> String {
        phrase.split(separator: " ", omittingEmptySubsequences: false)
            .map { nationalityNouns[$0.lowercased()] != nil ? $0.prefix(1).uppercased() + $0.dropFirst() : String($0) }
            .joined(separator: " ")
    }

    /// Capitalised words that are never names by their frequency alone. Not "May" or "Will":
    /// written in lower case as often as a modal verb is, they are names only where the text
    /// uses them as only names are used ("said May", "May Welland"), as "Rose" is
    /// (`NameMentionFinder.nameWords`).
    static let notNames: Set<String> = Set(nationalityNouns.keys).union(wordsNeverNames).union(calendarWords).union(placeNouns)
        .union(parentWords.keys)

    /// What a family calls its parents and grandparents: no names, but "said Mother" makes a
    /// character of that name (`SpeakerAttributor.subject`).
    static let parentWords: [String: Gender] = [
        "mother": .female, "mamma": .female, "mama": .female, "grandmother": .female, "grandmamma": .female, "grandmama": .female,
        "father": .male, "papa": .male, "grandfather": .male, "grandpapa": .male,
    ]

    /// Nouns a place's name opens with ("the Hotel Montoya", "the Café Select"): no part of a
    /// person's name (`NounNames`).
    static let establishmentNouns: Set<String> = [
        "hotel", "cafe", "café", "inn", "bar", "restaurant", "club", "theatre", "theater", "bank", "hospital", "station",
        "school", "college", "museum", "palace", "villa", "chateau", "château", "pension", "tavern", "farm", "mill",
        "place", "river", "mount", "lake", "bay", "cape", "port", "fort", "gate",
    ]

    /// Nouns of places, capitalised in their names ("Kellynch Hall", "the Abbey"), that are also
    /// surnames: a person's only after a title ("Mrs. Hall", "Mr. Hill"), and where titles make
    /// them so, "said Hall" too (`NameMentionFinder.nameWords`).
    static let placeNouns: Set<String> = ["street", "road", "lane", "square", "house", "hall", "park", "abbey", "castle", "church", "court", "hill"]

    /// Days and months: no names, unless a book names people so ("said Sunday" in The Man Who Was
    /// Thursday), which `NameMentionFinder.nameWords` tells from the speech verbs beside them.
    static let calendarWords: Set<String> = [
        "sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "january", "february", "march",
        "april", "june", "july", "august", "september", "october", "november", "december",
    ]

    private static let wordsNeverNames: Set<String> = [
        "i", "i'm", "i'll", "i've", "i'd", "he", "she", "it", "we", "they", "you", "me", "him", "her", "us", "them",
        "my", "your", "his", "its", "our", "their", "mine", "yours", "the", "a", "an", "and", "but", "or", "nor",
        "for", "so", "yet", "if", "then", "when", "where", "what", "who", "whom", "whose", "which", "why", "how",
        "this", "that", "these", "those", "there", "here", "now", "oh", "o", "ah", "yes", "no", "not", "well",
        "god", "lord", "heaven", "heavens", "christ", "jesus", "providence", "christmas", "easter", "english", "french", "german",
        "russian", "chapter", "book", "volume", "part", "the", "all", "some", "any", "every", "each", "one",
        "only", "even", "just", "do", "don't", "did", "does", "is", "was", "are", "were", "be", "have", "has", "had",
        "would", "shall", "should", "can", "could", "must", "might", "to", "of", "in", "on", "at", "by",
        "with", "from", "as", "after", "before", "upon", "mr", "mrs", "miss", "ms", "dr", "sir", "madam", "madame",
        "poor", "dear", "good", "let", "come", "go", "why", "very", "perhaps", "indeed", "ay", "aye", "nay", "hush",
        "look", "see", "thank", "thanks", "please", "pray", "alas", "amen", "hello", "goodbye", "good-bye", "ha",
        "majesty", "highness", "excellency",
        "ladyship", "lordship", "monsieur", "mademoiselle", "mlle", "mme", "m", "de", "von", "van", "le", "la",
        "america", "england", "london", "paris", "france", "europe", "bible", "gutenberg", "project", "ebook",
        "don't", "can't", "won't", "isn't", "wasn't", "it's", "that's", "there's", "what's", "here's", "let's",
        "yes", "sure", "never", "always", "still", "also", "too", "again", "nothing", "something", "everything",
        "somebody", "nobody", "everybody", "anybody", "someone", "everyone", "anyone", "no-one", "whoever",
    ]

    /// Common nouns that name a speaking role in a tag ("said the old man"), with their gender.
    static let roleNouns: [String: Gender] = nationalityNouns.merging(commonRoleNouns) { nationality, _ in nationality }

    private static let commonRoleNouns: [String: Gender] = [
        "man": .male, "woman": .female, "lady": .female, "gentleman": .male, "girl": .female, "boy": .male,
        "child": .unknown, "servant": .unknown, "maid": .female, "stranger": .unknown, "landlord": .male,
        "landlady": .female, "officer": .male, "driver": .male, "doctor": .male, "clerk": .male, "waiter": .male,
        "footman": .male, "butler": .male, "housekeeper": .female, "nurse": .female, "soldier": .male, "sailor": .male,
        "captain": .male, "general": .male, "colonel": .male, "major": .male, "priest": .male, "stationmaster": .male,
        "porter": .male, "coachman": .male, "policeman": .male, "king": .male, "queen": .female, "prince": .male,
        "princess": .female, "old": .unknown, "youth": .male, "lad": .male, "lass": .female, "fellow": .male,
        "visitor": .unknown, "host": .male, "hostess": .female, "guard": .male, "voice": .unknown, "croupier": .male,
        "baron": .male, "baroness": .female, "abbe": .male, "marquis": .male, "grandmother": .female, "grandfather": .male, "teacher": .unknown,
        "minister": .male, "count": .male, "countess": .female, "innkeeper": .male, "hunter": .male, "farmer": .male,
        "girls": .female, "men": .male, "women": .female, "mother": .female, "father": .male, "uncle": .male, "aunt": .female,
        "niece": .female, "nephew": .male, "sister": .female,
        // Servants of the period's households ("the lacquey returned with", "the nursemaid").
        "lacquey": .male, "lackey": .male, "valet": .male, "groom": .male, "usher": .male,
        "nursemaid": .female, "housemaid": .female, "chambermaid": .female, "parlourmaid": .female, "parlormaid": .female,
        "kitchenmaid": .female, "governess": .female, "cook": .female, "laundress": .female,
        "cousin": .unknown,
        // Offices ("asked the magistrate"); the ranks are added below.
        "constable": .male, "magistrate": .male, "surgeon": .male, "secretary": .unknown, "lawyer": .male, "curate": .male,
        "vicar": .male, "rector": .male, "clergyman": .male, "chaplain": .male, "judge": .male, "professor": .male,
    ].merging(ranks.map { ($0, Gender.male) }) { written, _ in written }

    /// Nouns of many people ("said the crowd", "cried the voices"): such a role speaks as a group.
    static let groupNouns: Set<String> = [
        "crowd", "people", "company", "audience", "mob", "multitude", "throng", "assembly", "chorus", "board", "council",
        "committee", "jury", "congregation", "family", "party", "crew", "populace", "spectators", "bystanders", "onlookers",
        "men", "women", "children", "gentlemen", "ladies", "folk", "folks", "voices", "members", "guests", "servants",
    ]

    /// Whether a role's key ("the crowd", "the two old men", "the voices in the rear") names a group:
    /// its head noun (the last word before a qualifier "in/of/at ...") is a group noun or a plural
    /// of a role noun ("the housemaids", "the sailors").
    static func isGroup(roleKey: String) -> Bool {
        let words = roleKey.split(separator: " ").map(String.init)
        let qualifier = words.dropFirst().firstIndex { ["in", "of", "at", "on", "from", "with", "by"].contains($0) } ?? words.endIndex
        guard let head = words[..<qualifier].last, head != "the" else { return false }
        if groupNouns.contains(head) { return true }
        guard head.hasSuffix("s"), !head.hasSuffix("ss"), !head.hasSuffix("us"), !head.hasSuffix("is"), head.count > 3 else { return false }
        let singular = String(head.dropLast())
        return roleNouns[singular] != nil || (head.hasSuffix("es") && roleNouns[String(head.dropLast(2))] != nil)
    }

    /// Words that never head a role in a tag ("said the other", "said the latter").
    static let notRoles: Set<String> = ["other", "latter", "former", "same", "one", "first", "last", "word", "words", "thing", "way", "few", "many", "several", "most", "both", "others", "rest"]

    /// Age cues in a name or in descriptions close to it.
    static let childCues: Set<String> = ["little", "baby", "master", "child", "boy", "girl", "kid", "lad", "lass", "young"]
    static let elderlyCues: Set<String> = ["old", "elderly", "aged", "grandmother", "grandfather", "granny", "grandpa", "grandma", "widow"]
    /// A word of age, which a role keeps in its key ("the old gentleman", "the young lady").
    static func isAgeCue(_ word: String) -> Bool { childCues.contains(word) || elderlyCues.contains(word) }
}
