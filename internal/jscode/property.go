package jscode

import (
	"strings"
	"sync"
)

// The names \p{...} takes in Unicode mode (ECMA-262, 22.2.2.9: tables
// "Non-binary Unicode property aliases" and "Binary Unicode property
// aliases", and the General_Category and Script values of the Unicode
// Character Database's PropertyValueAliases.txt). Only names every engine
// since Unicode 14 knows are listed: a name an engine does not know is a
// syntax error there. Script aliases (four-letter codes such as Latn) and
// the rarer value aliases are left out; a pattern using them is refused,
// never written as a literal.

// generalCategories are General_Category values, short and long.
var generalCategories = names(`C Other Cc Control Cf Format Cn Unassigned Co Private_Use Cs Surrogate
L Letter LC Cased_Letter Ll Lowercase_Letter Lm Modifier_Letter Lo Other_Letter Lt Titlecase_Letter
Lu Uppercase_Letter M Mark Mc Spacing_Mark Me Enclosing_Mark Mn Nonspacing_Mark N Number
Nd Decimal_Number Nl Letter_Number No Other_Number P Punctuation Pc Connector_Punctuation
Pd Dash_Punctuation Pe Close_Punctuation Pf Final_Punctuation Pi Initial_Punctuation
Po Other_Punctuation Ps Open_Punctuation S Symbol Sc Currency_Symbol Sk Modifier_Symbol
Sm Math_Symbol So Other_Symbol Z Separator Zl Line_Separator Zp Paragraph_Separator
Zs Space_Separator`)

// binaryProperties are the binary properties and their aliases.
var binaryProperties = names(`ASCII ASCII_Hex_Digit AHex Alphabetic Alpha Any Assigned Bidi_Control
Bidi_C Bidi_Mirrored Bidi_M Case_Ignorable CI Cased Changes_When_Casefolded CWCF
Changes_When_Casemapped CWCM Changes_When_Lowercased CWL Changes_When_NFKC_Casefolded CWKCF
Changes_When_Titlecased CWT Changes_When_Uppercased CWU Dash Default_Ignorable_Code_Point DI
Deprecated Dep Diacritic Dia Emoji Emoji_Component EComp Emoji_Modifier EMod Emoji_Modifier_Base
EBase Emoji_Presentation EPres Extended_Pictographic ExtPict Extender Ext Grapheme_Base Gr_Base
Grapheme_Extend Gr_Ext Hex_Digit Hex IDS_Binary_Operator IDSB IDS_Trinary_Operator IDST
ID_Continue IDC ID_Start IDS Ideographic Ideo Join_Control Join_C Logical_Order_Exception LOE
Lowercase Lower Math Noncharacter_Code_Point NChar Pattern_Syntax Pat_Syn Pattern_White_Space
Pat_WS Quotation_Mark QMark Radical Regional_Indicator RI Sentence_Terminal STerm Soft_Dotted SD
Terminal_Punctuation Term Unified_Ideograph UIdeo Uppercase Upper Variation_Selector VS
White_Space space XID_Continue XIDC XID_Start XIDS`)

// scripts are the Script values of Unicode 14, by their long names.
var scripts = names(`Adlam Ahom Anatolian_Hieroglyphs Arabic Armenian Avestan Balinese Bamum
Bassa_Vah Batak Bengali Bhaiksuki Bopomofo Brahmi Braille Buginese Buhid Canadian_Aboriginal Carian
Caucasian_Albanian Chakma Cham Cherokee Chorasmian Common Coptic Cuneiform Cypriot Cypro_Minoan
Cyrillic Deseret Devanagari Dives_Akuru Dogra Duployan Egyptian_Hieroglyphs Elbasan Elymaic Ethiopic
Georgian Glagolitic Gothic Grantha Greek Gujarati Gunjala_Gondi Gurmukhi Han Hangul Hanifi_Rohingya
Hanunoo Hatran Hebrew Hiragana Imperial_Aramaic Inherited Inscriptional_Pahlavi
Inscriptional_Parthian Javanese Kaithi Kannada Katakana Kayah_Li Kharoshthi Khitan_Small_Script
Khmer Khojki Khudawadi Lao Latin Lepcha Limbu Linear_A Linear_B Lisu Lycian Lydian Mahajani Makasar
Malayalam Mandaic Manichaean Marchen Masaram_Gondi Medefaidrin Meetei_Mayek Mende_Kikakui
Meroitic_Cursive Meroitic_Hieroglyphs Miao Modi Mongolian Mro Multani Myanmar Nabataean Nandinagari
New_Tai_Lue Newa Nko Nushu Nyiakeng_Puachue_Hmong Ogham Ol_Chiki Old_Hungarian Old_Italic
Old_North_Arabian Old_Permic Old_Persian Old_Sogdian Old_South_Arabian Old_Turkic Old_Uyghur Oriya
Osage Osmanya Pahawh_Hmong Palmyrene Pau_Cin_Hau Phags_Pa Phoenician Psalter_Pahlavi Rejang Runic
Samaritan Saurashtra Sharada Shavian Siddham SignWriting Sinhala Sogdian Sora_Sompeng Soyombo
Sundanese Syloti_Nagri Syriac Tagalog Tagbanwa Tai_Le Tai_Tham Tai_Viet Takri Tamil Tangsa Tangut
Telugu Thaana Thai Tibetan Tifinagh Tirhuta Toto Ugaritic Vai Vithkuqi Wancho Warang_Citi Yezidi Yi
Zanabazar_Square`)

// names is the set of the names in list, built on first use: most runs
// never parse a pattern.
func names(list string) func() map[string]bool {
	return sync.OnceValue(func() map[string]bool {
		set := map[string]bool{}
		for _, n := range strings.Fields(list) {
			set[n] = true
		}
		return set
	})
}

// knownProperty reports whether body, the text between \p{ and }, names a
// property every engine knows.
func knownProperty(body string) bool {
	name, value, ok := strings.Cut(body, "=")
	if !ok {
		return generalCategories()[body] || binaryProperties()[body]
	}
	switch name {
	case "General_Category", "gc":
		return generalCategories()[value]
	case "Script", "sc", "Script_Extensions", "scx":
		return scripts()[value]
	}
	return false
}

// PropertyNames lists every \p{...} body the parser accepts, for tests
// that ask an engine whether it knows them all.
func PropertyNames() []string {
	var out []string
	for n := range generalCategories() {
		out = append(out, n, "gc="+n, "General_Category="+n)
	}
	for n := range binaryProperties() {
		out = append(out, n)
	}
	for n := range scripts() {
		out = append(out, "sc="+n, "Script="+n, "scx="+n, "Script_Extensions="+n)
	}
	return out
}
