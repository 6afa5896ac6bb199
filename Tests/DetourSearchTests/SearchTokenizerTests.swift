import DetourSearch
import XCTest

final class SearchTokenizerTests: XCTestCase {
    private let english = SearchTokenizer(language: "en")

    func testIdentifiersAreKeptWholeAndSplitIntoTheirParts() {
        XCTAssertEqual(english.terms("proxy_read_timeout"), ["proxy_read_timeout", "proxi", "read", "timeout"])
        XCTAssertEqual(english.terms("php8.2-fpm"), ["php8.2-fpm", "php8", "php", "fpm"])
        XCTAssertEqual(english.terms("ProxyErrorOverride On"), ["proxyerroroverrid", "proxi", "error", "overrid"])
        XCTAssertEqual(english.terms("ECONNREFUSED"), ["econnrefus"])
        XCTAssertEqual(english.terms("upstream_response_time"), ["upstream_response_time", "upstream", "respons", "time"])
    }

    func testStatusCodesStayWhole() {
        XCTAssertEqual(english.terms("a 502, or any 5xx"), ["502", "ani", "5xx", "xx"])
    }

    func testJoinersJoinOnlyBetweenLettersAndDigits() {
        XCTAssertEqual(english.terms("nginx: (111: refused) -- end."), ["nginx", "111", "refus", "end"])
        XCTAssertEqual(english.terms("127.0.0.1:9000"), ["127.0.0.1:9000", "127", "9000"])
    }

    func testEnglishStopWordsAndStemming() {
        XCTAssertEqual(english.terms("The connections were refused"), ["connect", "were", "refus"])
    }

    func testOtherLanguagesAreFoldedButNotStemmed() {
        XCTAssertEqual(
            SearchTokenizer(language: "de").terms("Gateway-Zeitüberschreitung der Verbindungen"),
            ["gateway-zeituberschreitung", "gateway", "zeituberschreitung", "der", "verbindungen"])
        XCTAssertEqual(SearchTokenizer(language: "fr").terms("Délai dépassé"), ["delai", "depasse"])
    }

    func testASCIIAndOtherScriptsMixedInOneText() {
        let french = SearchTokenizer(language: "fr")
        XCTAssertEqual(french.terms("x鍵y ÉCOLE café-au-lait"), ["鍵", "ecole", "cafe-au-lait", "cafe", "au", "lait"])
        XCTAssertEqual(french.terms("Ünïcode_Über99 ok.Fine"), ["unicode_uber99", "unicode", "uber99", "uber", "99", "ok.fine", "ok", "fine"])
        XCTAssertEqual(SearchTokenizer(language: "ja").terms("日本語の502エラー"), ["日本", "本語", "語の", "502", "エラ", "ラー"])
    }

    func testJapaneseBecomesBigrams() {
        XCTAssertEqual(SearchTokenizer(language: "ja").terms("ゲートウェイのエラー 502"), ["ゲー", "ート", "トウ", "ウェ", "ェイ", "イの", "のエ", "エラ", "ラー", "502"])
        XCTAssertEqual(SearchTokenizer(language: "ja").terms("nginx 鍵"), ["nginx", "鍵"])
    }
}
