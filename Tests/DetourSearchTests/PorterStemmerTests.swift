import DetourSearch
import XCTest

final class PorterStemmerTests: XCTestCase {
    /// The examples of Porter's paper, step by step, and whole words through every step.
    func testThePapersExamples() {
        let cases = [
            "caresses": "caress", "ponies": "poni", "ties": "ti", "caress": "caress", "cats": "cat",
            "feed": "feed", "agreed": "agre", "plastered": "plaster", "bled": "bled", "motoring": "motor", "sing": "sing",
            "conflated": "conflat", "troubled": "troubl", "sized": "size", "hopping": "hop", "tanned": "tan",
            "falling": "fall", "hissing": "hiss", "fizzed": "fizz", "failing": "fail", "filing": "file",
            "happy": "happi", "sky": "sky", "relational": "relat", "conditional": "condit", "rational": "ration",
            "valenci": "valenc", "digitizer": "digit", "generalization": "gener", "oscillators": "oscil",
            "triplicate": "triplic", "formative": "form", "electriciti": "electr", "hopeful": "hope", "goodness": "good",
            "revival": "reviv", "allowance": "allow", "adjustment": "adjust", "adoption": "adopt", "controll": "control", "roll": "roll",
            "probate": "probat", "rate": "rate", "cease": "ceas",
        ]
        for (word, stem) in cases { XCTAssertEqual(PorterStemmer.stem(word), stem, word) }
    }

    func testTroubleshootingWordsMeetTheirVariants() {
        for group in [
            ["connection", "connections", "connecting", "connected"], ["timeout", "timeouts"], ["refused", "refuses", "refusing"], ["upstream", "upstreams"],
            ["deploy", "deploys", "deployed", "deploying", "deployment", "deployments"],
        ] {
            XCTAssertEqual(Set(group.map(PorterStemmer.stem)).count, 1, "\(group) → \(group.map(PorterStemmer.stem))")
        }
    }
}
