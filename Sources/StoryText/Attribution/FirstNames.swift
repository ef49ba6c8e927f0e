import StoryModel

/// Common English given names by gender, and the usual nicknames of the commonest ones.
/// Compact on purpose: a first name is only one cue among honorifics and pronouns.
enum FirstNames {
    private static let femaleList = """
    abigail ada adela adelaide adele agatha agnes alice alicia alison amanda amelia amy anastasia andrea angela \
    ann anna anne annie antoinette arabella augusta barbara beatrice becky bella belle bertha beryl bessie beth \
    betsy betty blanche bridget camilla caroline carrie catherine cecilia cecily celia charlotte christina \
    christine clara clarissa claudia constance cora cordelia cynthia daisy deborah delia diana dinah dolly dora \
    doris dorothea dorothy edith edna eleanor elinor eliza elizabeth ella ellen elsie emily emma esther ethel \
    eugenia eva evelyn fanny flora florence frances georgiana georgina gertrude grace gwendolen hannah harriet \
    harriette helen helena henrietta hester hetty hilda ida irene isabel isabella jane janet jean jemima jenny \
    jessie joan josephine judith julia juliet julie kate katherine kathleen katie kitty laura lavinia leah lilian \
    lillian lily lizzie lizzy lois louisa louise lucia lucy lydia mabel madeleine madeline maggie margaret \
    margery maria marian marianne marie marion martha mary matilda maud maude meg mildred millie minnie \
    miriam molly nancy nell nellie nora olive olivia pauline peggy penelope phoebe polly priscilla prudence \
    rachel rebecca rhoda rose rosa rosalind rosamond ruth sally sarah selina sophia sophie sophy susan susanna \
    susannah sybil sylvia theresa victoria violet virginia winifred adele natasha sonia \
    tatiana olga anya vera nina ruby hattie mattie lottie nettie \
    adeline claire francoise genevieve yvonne mathilde marguerite \
    myra gwen ivy iris hazel mavis muriel pearl rosalie stella una ursula vanessa wilhelmina zoe letitia \
    lettice philippa rosamund theodora cecily eunice gladys imogen jessica lorna mariana maria teresa \
    may mom mum mommy mummy nana ma \
    sibyl tess pansy cassandra katharine lucie mina cathy nelly winnie hermione honoria clementina geraldine \
    frederica hortense leonora lucilla sabina tabitha keziah alexandra natalia elena sonya katerina
    """
    private static let maleList = """
    aaron abraham adam adolphus albert alec alexander alfred algernon allan alan andrew anthony antony \
    archibald archie arthur augustus austin barnaby bartholomew basil ben benjamin bernard bertie bertram bill \
    billy bob charles charley charlie christopher clarence claude clement cornelius cyril daniel david dick \
    donald douglas dudley edgar edmund edward edwin egbert eli elijah ernest eugene ezra felix ferdinand francis \
    frank franklin fred freddie frederic frederick gabriel geoffrey george gerald gilbert giles godfrey gregory \
    guy harold harry henry herbert horace horatio howard hugh humphrey ian isaac jack jacob james jasper jeremiah \
    jeremy jerry jesse jim jimmy joe john jonathan joseph joshua julian julius kenneth lawrence leonard \
    leopold lewis louis luke marcus mark martin matthew maurice michael moses nathan nathaniel ned neville \
    nicholas noah oliver oscar owen patrick paul percy peter philip phillip ralph randolph raymond reginald \
    richard robert robin roger ronald rowland rufus rupert samuel sam sebastian septimus silas simon solomon \
    stephen steven thomas tim timothy tobias tom tommy victor vincent walter wilfred william willie willoughby \
    alexei ivan dmitri nikolai sergei pyotr fyodor mikhail vladimir boris victor raoul etienne \
    jacques pierre jean henri andre gustave alphonse hans karl fritz otto mitya misha kolya \
    charlie ted teddy davy hal dan nick harvey ronald \
    hubert rafael angelo leon pedro carlos juan jose luis antonio giovanni mario paolo franz wilhelm heinrich \
    josef emil max bruno lionel cecil clifford percival ambrose lancelot montague oswald reuben rodney roland \
    seth toby tristram wallace warren ezekiel isaiah josiah obadiah zachariah jeremiah \
    dad daddy pa \
    ronny jude trevor sherlock thaddeus mordecai kit lucian stepan alyosha jem jos hugo barnabas \
    rawdon dorian newland
    """

    static let female: Set<String> = Set(femaleList.split(separator: " ").map(String.init))
    static let male: Set<String> = Set(maleList.split(separator: " ").map(String.init))

    static func isGivenName(_ word: String) -> Bool {
        female.contains(word) || male.contains(word) || nicknames[word] != nil
    }

    /// A given name no list knows that ends as most women's names of the period do ("Medora",
    /// "Antonida"), but not as the Russian pet names of men do ("Mitya", "Alyosha", "Volodya").
    static func soundsFeminine(_ name: String) -> Bool {
        name.count >= 4 && name.hasSuffix("a") && !["ya", "sha", "ka", "ja", "ha"].contains(where: name.hasSuffix)
    }

    /// The name a nickname shortens ("tom" → "thomas"), or the name itself.
    static func formal(_ name: String) -> String { nicknames[name] ?? name }

    /// A name with every nickname of it ("thomas", "tom", "tommy").
    static func variants(of name: String) -> Set<String> {
        let formal = formal(name)
        return Set([name, formal] + nicknames.compactMap { $0.value == formal ? $0.key : nil })
    }

    static func gender(of firstName: String) -> Gender {
        if let listed = listedGender(of: firstName) { return listed }
        // "Mary-Ann", "Jean-Paul": the first part's (not "Winnie-the-Pooh"'s, a name of its own).
        if firstName.count(where: { $0 == "-" }) == 1, let hyphen = firstName.firstIndex(of: "-") { return gender(of: String(firstName[..<hyphen])) }
        // A nickname has the gender of the name it shortens ("Sissy" is Cecilia).
        if let formal = nicknames[firstName], formal != firstName { return gender(of: formal) }
        return diminutiveGender(of: firstName)
    }

    /// The gender the tables give a name: nil when neither lists it, unknown when both do.
    private static func listedGender(of name: String) -> Gender? {
        let inFemale = female.contains(name), inMale = male.contains(name)
        guard inFemale || inMale else { return nil }
        return inFemale == inMale ? .unknown : inFemale ? .female : .male
    }

    /// English pet names add -y or -ie to a name ("Anny" is Ann's, "Jimmie" Jim's).
    private static func diminutiveGender(of name: String) -> Gender {
        // "Fannie" is "Fanny" spelled otherwise.
        if name.hasSuffix("ie"), case let spelled = gender(of: name.dropLast(2) + "y"), spelled != .unknown { return spelled }
        for suffix in ["ie", "y"] where name.hasSuffix(suffix) && name.count > suffix.count + 2 {
            let stem = String(name.dropLast(suffix.count))
            let stems = stem.count > 3 && stem.last == stem.dropLast().last ? [stem, String(stem.dropLast())] : [stem]
            if let gender = stems.lazy.compactMap(listedGender).first(where: { $0 != .unknown }) { return gender }
        }
        return .unknown
    }

    /// Nickname → the formal given name it shortens.
    static let nicknames: [String: String] = [
        "lizzy": "elizabeth", "lizzie": "elizabeth", "liz": "elizabeth", "eliza": "elizabeth", "beth": "elizabeth",
        "betsy": "elizabeth", "betty": "elizabeth", "bess": "elizabeth", "bessie": "elizabeth", "libby": "elizabeth",
        "kitty": "catherine", "kate": "catherine", "katie": "catherine", "cathy": "catherine", "kit": "christopher",
        "fanny": "frances", "franny": "frances", "jenny": "jane", "jennie": "jane", "janey": "jane",
        "polly": "mary", "molly": "mary", "mamie": "mary", "maggie": "margaret", "meg": "margaret", "peggy": "margaret",
        "madge": "margaret", "daisy": "margaret", "nell": "eleanor", "nelly": "eleanor", "nellie": "eleanor",
        "sally": "sarah", "sadie": "sarah", "patty": "martha", "mattie": "martha", "sukey": "susan", "sue": "susan",
        "susie": "susan", "annie": "anne", "nan": "anne", "nancy": "anne", "dolly": "dorothy", "dora": "dorothy",
        "tilly": "matilda", "tillie": "matilda", "hetty": "henrietta", "harry": "henry", "hal": "henry", "hank": "henry",
        "dick": "richard", "rick": "richard", "bob": "robert", "bobby": "robert", "rob": "robert", "robin": "robert",
        "bill": "william", "billy": "william", "will": "william", "willie": "william", "willy": "william",
        "tom": "thomas", "tommy": "thomas", "jim": "james", "jimmy": "james", "jamie": "james", "jack": "john",
        "johnny": "john", "ned": "edward", "ted": "edward", "teddy": "edward", "eddie": "edward", "ed": "edward",
        "fred": "frederick", "freddy": "frederick", "freddie": "frederick", "charley": "charles", "charlie": "charles",
        "chuck": "charles", "sam": "samuel", "sammy": "samuel", "ben": "benjamin", "benny": "benjamin",
        "joe": "joseph", "joey": "joseph", "nick": "nicholas", "tony": "anthony", "andy": "andrew", "drew": "andrew",
        "davy": "david", "dave": "david", "matt": "matthew", "pat": "patrick", "phil": "philip", "steve": "stephen",
        "alec": "alexander", "alex": "alexander", "sandy": "alexander", "bertie": "albert", "gus": "augustus",
        "archie": "archibald", "geoff": "geoffrey", "jerry": "gerald", "larry": "lawrence", "tim": "timothy",
        "izzy": "isabella", "bella": "isabella", "belle": "isabella", "lucy": "lucinda", "milly": "mildred",
        "becky": "rebecca", "becca": "rebecca", "debby": "deborah", "ginny": "virginia", "trixie": "beatrice",
        "addie": "adelaide", "lottie": "charlotte", "lotty": "charlotte", "sophy": "sophia", "gertie": "gertrude",
        "winnie": "winifred", "vicky": "victoria", "di": "diana", "josie": "josephine",
        "emmy": "emma", "emmie": "emma",
        "jake": "jacob", "abby": "abigail", "gabe": "gabriel", "ike": "isaac", "zeke": "ezekiel", "nate": "nathaniel",
        "greg": "gregory", "walt": "walter", "wally": "walter", "ernie": "ernest", "reggie": "reginald",
        "connie": "constance", "cissy": "cecilia", "sissy": "cecilia", "rosie": "rose", "minnie": "wilhelmina",
        "lettie": "letitia", "letty": "letitia", "prissy": "priscilla", "hattie": "harriet", "dolph": "adolphus",
        "len": "leonard", "lenny": "leonard", "nance": "anne", "nat": "nathaniel", "mat": "matthew", "nicky": "nicholas",
        "tilda": "matilda",
    ]
}
