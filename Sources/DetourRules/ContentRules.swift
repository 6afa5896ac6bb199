import DetourCodeBlockCheck
import DetourDiagnostics

/// Every rule `detour build` (and `serve`, `snippet`) reports about content, templates and the
/// output, each once, for `--explain`, the rule pages and SARIF's rule metadata. The code that
/// raises a finding names its rule as written here; a test holds the two lists equal.
/// `consequence` says what the build or its readers get when the rule fires.
enum ContentRules {
    static let all: [RuleDescription] = [
        RuleDescription(
            "article.duplicate-slug", .error, summary: "two articles use the same URL name (slug)",
            consequence: "the build fails: one page would overwrite the other; give one of them its own 'slug'"),
        RuleDescription(
            "article.invalid-slug", .error, summary: "a 'slug' that is not lowercase letters, digits and hyphens, or a file name no URL name can be made of",
            consequence: "the build fails; write the slug the message suggests"),
        RuleDescription(
            "article.log-pattern-shadowed", .warning, summary: "a log pattern that another article's pattern already explains",
            consequence:
                "detour diagnose names the other article for every line this pattern was written for; make one of them longer, with the words that tell the problems apart"
        ),
        RuleDescription(
            "article.log-pattern-unmatchable", .warning, summary: "a log pattern that matches no line, not even its own text",
            consequence: "detour diagnose never leads to the article"),
        RuleDescription(
            "article.missing-front-matter", .error, summary: "an article that does not start with YAML front matter between '---' lines",
            consequence: "the build fails: the article has no title, summary or codes"),
        RuleDescription(
            "article.orphan-translation", .error, summary: "'name.<language>.md' translates an article that does not exist",
            consequence: "the build fails; rename the translation after its article, or add the article"),
        RuleDescription(
            "article.unknown-code", .error, summary: "an article lists a status code that codes/ does not define",
            consequence: "the build fails: the article would be linked from a code page that is never built"),
        RuleDescription(
            "article.unterminated-front-matter", .error, summary: "front matter opened with '---' and never closed",
            consequence: "the build fails: the whole article would be read as front matter"),
        RuleDescription(
            "build.content-changed", .error, summary: "a content file changed while the site was being built",
            consequence: "the build is not published (the previous public/ stays); build again"),
        RuleDescription(
            "build.output-refused", .error, summary: "the output folder would replace the project, its content or another file",
            consequence: "nothing is written; choose a folder of its own such as 'public'"),
        RuleDescription(
            "build.write-failed", .error, summary: "the output could not be written (disk full, permissions)",
            consequence: "nothing is published: the previous output stays as it was"),
        RuleDescription(
            "cloudflare.page-too-large", .error, summary: "a Cloudflare custom error page over the 10 KB Cloudflare accepts",
            consequence: "Cloudflare refuses to publish the page and visitors get Cloudflare's own"),
        RuleDescription(
            "cloudflare.referrer-meta", .error, summary: "a Cloudflare page template sets a referrer policy (<meta name=\"referrer\">)",
            consequence: "Cloudflare's challenges break on the page"),
        RuleDescription(
            "cloudflare.token-count", .error,
            summary: "a Cloudflare page template lacks its token (::CLOUDFLARE_ERROR_500S_BOX:: and the like) or carries it twice",
            consequence: "Cloudflare refuses to publish the page"),
        RuleDescription(
            "code.duplicate-status", .error, summary: "two files in codes/ define the same status",
            consequence: "the build fails: one definition would silently win"),
        RuleDescription(
            "code.missing-advice", .warning, summary: "a code that generates an error page has no 'advice'",
            consequence: "visitors are told what went wrong but not what to do"),
        RuleDescription(
            "code.unknown-related-article", .error, summary: "a code's related article does not exist or is a draft",
            consequence: "the build fails: the error page would link to a page that is not published"),
        RuleDescription(
            "content.invalid-value", .error, summary: "a field has a value it does not take (an audience, a tag with no letter, an empty list entry)",
            consequence: "the build fails; the message names the values it takes"),
        RuleDescription(
            "content.missing-field", .error, summary: "a required field is absent or empty",
            consequence: "the build fails; the message names the field"),
        RuleDescription(
            "content.missing-file", .error, summary: "content/site.yml does not exist",
            consequence: "nothing is built: the site has no name, base URL or languages; 'detour init' writes one"),
        RuleDescription(
            "content.missing-folder", .error, summary: "the content folder does not exist",
            consequence: "nothing is built; 'detour init' makes a project"),
        RuleDescription(
            "content.out-of-range", .error, summary: "a number outside what the field takes (a status outside 100–599, a retry time)",
            consequence: "the build fails"),
        RuleDescription(
            "content.type-mismatch", .error, summary: "a field of the wrong kind: text where a list or mapping belongs, or the other way round",
            consequence: "the build fails"),
        RuleDescription(
            "content.unknown-field", .error, summary: "a field detour does not know, often a misspelt one (with a 'did you mean')",
            consequence: "the build fails rather than ignore what the author meant to set"),
        RuleDescription(
            "errorpage.too-large", .error, summary: "an error page over its size budget",
            consequence: "the build fails: the page must fit an error response (HAProxy's buffer, Cloudflare's limit); shorten the advice or the template"),
        RuleDescription(
            "file.not-utf8", .error, summary: "a content or template file that is not UTF-8 text",
            consequence: "the file is not read and the build fails"),
        RuleDescription(
            "file.path-escape", .error, summary: "a symbolic link inside content/ or templates/ that leads outside it",
            consequence: "the file is not read: a build never publishes what lies outside the project"),
        RuleDescription(
            "file.unreadable", .error, summary: "a file that cannot be read (permissions, a folder where a file belongs)",
            consequence: "the build fails"),
        RuleDescription(
            "markdown.broken-link", .error,
            summary: "a link to a page, heading or file the site does not have (a relative .md link to no article is a warning, as GitHub may resolve it)",
            consequence: "readers follow a link to nothing; the message suggests the closest page or heading"),
        CodeBlockCheck.rule,
        RuleDescription(
            "site.duplicate-language", .error, summary: "site.yml lists a language twice",
            consequence: "the build fails"),
        RuleDescription(
            "site.invalid-color", .error, summary: "a colour that is not a hex colour such as '#0a5bd3'",
            consequence: "the build fails"),
        RuleDescription(
            "site.invalid-language", .error, summary: "a language that is not a language tag such as 'en' or 'pt-BR'",
            consequence: "the build fails"),
        RuleDescription(
            "site.invalid-logo", .error, summary: "a logo that is not an SVG document",
            consequence: "the build fails: error pages inline the logo as SVG markup"),
        RuleDescription(
            "site.invalid-path", .error, summary: "an 'error_path' or 'install_path' that is not a plain absolute path",
            consequence: "the build fails: the server snippets would name a path the servers cannot serve"),
        RuleDescription(
            "site.invalid-url", .error, summary: "a URL field ('base_url', 'status_page', …) that is not an absolute http or https URL",
            consequence: "the build fails: error pages would link nowhere"),
        RuleDescription(
            "site.logo-external-reference", .error, summary: "a logo that loads an external resource",
            consequence: "the build fails: an error page may make no request while the backend is down"),
        RuleDescription(
            "site.logo-script", .error, summary: "a logo with scripts or event handlers",
            consequence: "the build fails: error pages run no script from content"),
        RuleDescription(
            "site.logo-too-large", .error, summary: "a logo over 8 KiB",
            consequence: "the build fails: every error page inlines it and must stay small"),
        RuleDescription(
            "site.low-contrast", .warning, summary: "a text colour with less than 4.5:1 contrast on its background (WCAG AA)",
            consequence: "visitors cannot read the page comfortably, in the light or the dark scheme"),
        RuleDescription(
            "site.missing-file", .error, summary: "the logo file site.yml names does not exist",
            consequence: "the build fails"),
        RuleDescription(
            "site.path-escape", .error, summary: "the logo is named by a path outside content/",
            consequence: "the build fails: a build never publishes what lies outside the project"),
        RuleDescription(
            "template.empty-page", .error, summary: "a template that renders nothing",
            consequence: "the build fails: its pages would be blank"),
        RuleDescription(
            "template.missing", .error, summary: "no template for what is asked (a server's example configuration)",
            consequence: "the snippet is not printed"),
        RuleDescription(
            "template.missing-folder", .error, summary: "the templates folder given does not exist",
            consequence: "nothing is built"),
        RuleDescription(
            "template.missing-partial", .error, summary: "a template includes a partial that does not exist",
            consequence: "the build fails: the page would lose that part silently"),
        RuleDescription(
            "template.syntax", .error, summary: "invalid Mustache in a template",
            consequence: "the build fails"),
        RuleDescription(
            "translation.missing", .warning, summary: "a listed language without its translations file, or lacking strings",
            consequence: "pages in that language show the default language's text where the translation is missing"),
        RuleDescription(
            "translation.unknown-code", .warning, summary: "a translation of a status codes/ does not define",
            consequence: "the translation is not used"),
        RuleDescription(
            "translation.unknown-key", .warning, summary: "a translation string detour does not know, often a misspelt one",
            consequence: "the string is not used; the default language's text shows"),
        RuleDescription(
            "translation.unused", .warning, summary: "a translation that is never used (the default language's texts live in codes/)",
            consequence: "edits to it change nothing"),
        RuleDescription(
            "yaml.duplicate-key", .error, summary: "a key written twice in one YAML mapping",
            consequence: "the build fails rather than keep one of the two values silently"),
        RuleDescription(
            "yaml.syntax", .error, summary: "invalid YAML in site.yml, a code, a translation or front matter",
            consequence: "the build fails"),
    ]
}
