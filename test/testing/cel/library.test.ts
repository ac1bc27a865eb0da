/**
 * The Kubernetes CEL function libraries of LocalCluster (src/testing/cel/library.ts): each
 * function's true / false / error answers, taken from the examples and tests of
 * k8s.io/apiserver/pkg/cel/library (v1.36) plus cases of our own, evaluated with
 * `@bufbuild/cel`'s `run` and {@link KUBERNETES_CEL_FUNCS}.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { isCelError, isCelList, isCelMap, run } from "@bufbuild/cel";
import type { CelValue } from "@bufbuild/cel";
import { KUBERNETES_CEL_FUNCS, SUPPORTED_CEL_FUNCTIONS, UNSUPPORTED_KUBERNETES_FUNCTIONS } from "../../../src/testing/cel/library.ts";

const funcs = [...KUBERNETES_CEL_FUNCS];

/** Lists and maps as plain JS; scalars as they are. */
function plain(v: CelValue): unknown {
  if (isCelList(v)) return [...v].map(plain);
  if (isCelMap(v)) return Object.fromEntries([...v].map(([k, x]) => [String(k), plain(x)]));
  return v;
}

function ev(expr: string): unknown {
  const r = run(expr, {}, { funcs });
  if (isCelError(r)) return { error: r.message };
  return plain(r);
}

type Case = readonly [expr: string, expected: unknown];

/** An expected runtime error whose message matches. */
const err = (message: string | RegExp) => ({ message });

function table(name: string, cases: readonly Case[]): void {
  describe(name, () => {
    for (const [expr, expected] of cases) {
      it(expr, () => {
        const got = ev(expr);
        if (expected !== null && typeof expected === "object" && "message" in expected) {
          assert.ok(got !== null && typeof got === "object" && "error" in got, `expected an error, got ${String(got)}`);
          const m = (expected as { message: string | RegExp }).message;
          const msg = (got as { error: string }).error;
          if (typeof m === "string") assert.equal(msg, m);
          else assert.match(msg, m);
        } else {
          assert.deepEqual(got, expected);
        }
      });
    }
  });
}

table("lists library", [
  ["[1, 2, 3].isSorted()", true],
  ["['a', 'b', 'b', 'c'].isSorted()", true],
  ["[2.0, 1.0].isSorted()", false],
  ["[1].isSorted()", true],
  ["[].isSorted()", true],
  ["[1, 2.5, 3u].isSorted()", true],
  ["[[1]].isSorted()", err(/no such overload/)],
  ["[1, 3].sum()", 4n],
  ["[1.0, 3.0].sum()", 4],
  ["[].sum()", 0n],
  ["[duration('1m'), duration('1s')].sum() == duration('61s')", true],
  ["[9223372036854775807, 1].sum()", err(/overflow/)],
  ["[1, 3].min()", 1n],
  ["[1, 3].max()", 3n],
  ["['b', 'a', 'c'].max()", "c"],
  ["[].min()", err("min called on empty list")],
  ["[].max()", err("max called on empty list")],
  ["[1].min()", 1n],
  ["([0] + []).min()", 0n],
  ["[1, 2, 2, 3].indexOf(2)", 1n],
  ["['a', 'b', 'b', 'c'].lastIndexOf('b')", 2n],
  ["[1.0].indexOf(1.1)", -1n],
  ["[].indexOf('string')", -1n],
  ["[1, 2].indexOf(2.0)", 1n],
]);

table("sets extension", [
  ["sets.contains([], [])", true],
  ["sets.contains([1, 2, 3, 4], [2, 3])", true],
  ["sets.contains([1, 2, 3], [3, 4])", false],
  ["sets.contains([1], [1.0, 1u])", true],
  ["sets.equivalent([], [])", true],
  ["sets.equivalent([1, 2, 3], [3u, 2.0, 1])", true],
  ["sets.equivalent([1, 2], [2, 2, 1])", true],
  ["sets.equivalent([1, 2, 3], [1, 2])", false],
  ["sets.intersects([1], [1])", true],
  ["sets.intersects([1], [1.0, 2])", true],
  ["sets.intersects([1, 2], [3])", false],
  ["sets.intersects([], [])", false],
]);

table("regex library", [
  ["'abc 123'.find('[0-9]+')", "123"],
  ["'abc 123'.find('xyz')", ""],
  ["'123 abc 456'.findAll('[0-9]+')", ["123", "456"]],
  ["'123 abc 456'.findAll('[0-9]+', 1)", ["123"]],
  ["'123 abc 456'.findAll('[0-9]+', 0)", []],
  ["'123 abc 456'.findAll('[0-9]+', -1)", ["123", "456"]],
  ["'123 abc 456'.findAll('xyz')", []],
  // Go's FindAllString skips an empty match right after the previous match.
  ["'baaac'.findAll('a*')", ["", "aaa", ""]],
  ["'ABC'.find('(?i)b')", "B"],
  ["'X'.find('(?i)ab|x')", "X"],
  ["'aB'.find('a(?i)b')", "aB"],
  ["'k8s-1.2'.find('[[:digit:]]+')", "8"],
  ["'ab12'.find('[^[:alpha:]]+')", "12"],
  ["'a#b'.find('\\\\#')", "#"],
  ["'a.b'.find('\\\\Q.\\\\E')", "."],
  ["'x{y'.find('x{')", "x{"],
  ["'héllo'.findAll('.')", ["h", "é", "l", "l", "o"]],
  ["'key=value'.find('(?P<k>[a-z]+)=')", "key="],
  ["'line1\\nline2'.findAll('(?m)^line[0-9]')", ["line1", "line2"]],
  ["'abc'.find('\\\\Aa')", "a"],
  ["'abc'.find('c\\\\z')", "c"],
  ["'aλb'.find('\\\\p{Greek}')", "λ"],
  ["'aλb'.find('\\\\pL+')", "aλb"],
  ["'aλ1'.find('\\\\P{L}')", "1"],
  ["'abc'.find('(')", err("error parsing regexp: missing closing ): `(`")],
  ["'abc'.findAll('[')", err(/^error parsing regexp: missing closing \]/)],
]);

table("quantity library", [
  ["quantity('12Mi') == quantity('12582912')", true],
  ["quantity('10Mo')", err("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")],
  ["quantity('10Mm')", err("unable to parse quantity's suffix")],
  ["quantity('200K')", err("unable to parse quantity's suffix")],
  ["quantity('Three')", err(/^quantities must match the regular expression/)],
  ["quantity('')", err(/^quantities must match the regular expression/)],
  ["quantity('1,3G')", err(/^quantities must match the regular expression/)],
  ["isQuantity('20')", true],
  ["isQuantity('20M')", true],
  ["isQuantity('20Mi')", true],
  ["isQuantity('1.3G')", true],
  ["isQuantity('10000k')", true],
  ["isQuantity('1e3')", true],
  ["isQuantity('-1.5Gi')", true],
  ["isQuantity('20Mo')", false],
  ["isQuantity('10Mm')", false],
  ["isQuantity('1,3G')", false],
  ["isQuantity('200K')", false],
  ["quantity('200M') == quantity('200M')", true],
  ["quantity('200M') == quantity('0.2G') && quantity('0.2G') == quantity('200M')", true],
  ["quantity('2M') == quantity('0.002G') && quantity('2000k') == quantity('2M')", true],
  ["quantity('200M') == quantity('0.3G')", false],
  ["quantity('1') == quantity('1000m')", true],
  ["quantity('1Ki') == quantity('1024')", true],
  ["quantity('1.5n') == quantity('2n')", true],
  ["quantity('50M').isLessThan(quantity('50Mi'))", true],
  ["quantity('100M').isLessThan(quantity('50M'))", false],
  ["quantity('50Mi').isGreaterThan(quantity('50M'))", true],
  ["quantity('50M').isGreaterThan(quantity('100M'))", false],
  ["quantity('200M').compareTo(quantity('0.2G'))", 0n],
  ["quantity('50M').compareTo(quantity('50Mi'))", -1n],
  ["quantity('50Mi').compareTo(quantity('50M'))", 1n],
  ["quantity('50k').add(quantity('20')) == quantity('50.02k')", true],
  ["quantity('50k').add(20).isLessThan(quantity('50020'))", false],
  ["quantity('50k').add('20k')", err(/found no matching overload/)],
  ["quantity('50k').sub(quantity('20')) == quantity('49.98k')", true],
  ["quantity('50k').sub(20) == quantity('49980')", true],
  ["quantity('50k').sub(20000) == quantity('30k')", true],
  ["quantity('50k').add(20).sub(quantity('100k')).asInteger()", -49980n],
  ["quantity('50k').add(20).sub(quantity('100k')).sub(-50000).asInteger()", 20n],
  ["quantity('50k').asInteger()", 50000n],
  ["quantity('9999999999999999999999999999999999999G').asInteger()", err("cannot convert value to integer")],
  ["quantity('9999999999999999999999999999999999999G').isInteger()", false],
  ["quantity('50').isInteger()", true],
  ["quantity('50000000G').isInteger()", true],
  // apimachinery keeps 1000m as 1000 × 10⁻³, which AsInt64 refuses.
  ["quantity('1000m').isInteger()", false],
  ["quantity('50.703k').asApproximateFloat()", 50703],
  ["quantity('50k').sub(20000).asApproximateFloat() == 30000.0", true],
  ["sign(quantity('-1'))", -1n],
  ["sign(quantity('0'))", 0n],
  ["sign(quantity('5Gi'))", 1n],
  ["type(quantity('1')) == type(quantity('2'))", true],
  // apimachinery's scanner reads a bare suffix as 0 through its int64 fast path ("Mi"), but not
  // past it ("Ei" needs the inf.Dec path, which rejects the empty number).
  ["quantity('Mi') == quantity('0')", true],
  ["quantity('Ei')", err("unable to parse numeric part of quantity")],
  // A quantity keeps what it is inside lists, maps and macros.
  ["[quantity('1000m')][0].isInteger()", false],
  ["{'a': quantity('1000m')}['a'] == quantity('1')", true],
  ["[quantity('2')].map(q, q.add(1))[0] == quantity('3')", true],
  ["quantity('1') in [quantity('1000m')]", true],
  ["[quantity('1'), quantity('2')].isSorted()", err(/no such overload/)],
]);

table("url library", [
  ["isURL('https://user:pass@example.com:80/path?query=val#fragment')", true],
  ["isURL('/absolute-path')", true],
  ["isURL('https://a:b:c/')", false],
  ["isURL('../relative-path')", false],
  ["isURL('')", false],
  ["url('https://a:b:c/')", err('URL parse error during conversion from string: parse "https://a:b:c/": invalid port ":c" after host')],
  ["url('../relative-path')", err('URL parse error during conversion from string: parse "../relative-path": invalid URI for request')],
  ["url('/path').getScheme()", ""],
  ["url('https://example.com/').getScheme()", "https"],
  ["url('HTTPS://example.com/').getScheme()", "https"],
  ["url('https://example.com:80/').getHost()", "example.com:80"],
  ["url('https://example.com/').getHost()", "example.com"],
  ["url('https://[::1]:80/').getHost()", "[::1]:80"],
  ["url('https://[::1]/').getHost()", "[::1]"],
  ["url('/path').getHost()", ""],
  ["url('https://example.com:80/').getHostname()", "example.com"],
  ["url('https://127.0.0.1:80/').getHostname()", "127.0.0.1"],
  ["url('https://[::1]:80/').getHostname()", "::1"],
  ["url('/path').getHostname()", ""],
  ["url('https://example.com:80/').getPort()", "80"],
  ["url('https://example.com/').getPort()", ""],
  ["url('/path').getPort()", ""],
  ["url('https://example.com/path').getEscapedPath()", "/path"],
  ["url('https://example.com/path with spaces/').getEscapedPath()", "/path%20with%20spaces/"],
  ["url('https://example.com').getEscapedPath()", ""],
  ["url('https://example.com/a%2Fb').getEscapedPath()", "/a%2Fb"],
  ["url('https://example.com/path?k1=a&k2=b&k2=c').getQuery()", { k1: ["a"], k2: ["b", "c"] }],
  ["url('https://example.com/path?key with spaces=value with spaces').getQuery()", { "key with spaces": ["value with spaces"] }],
  ["url('https://example.com/path?a=%41+b').getQuery()", { a: ["A b"] }],
  ["url('https://example.com/path?').getQuery()", {}],
  ["url('https://example.com/path').getQuery()", {}],
  ["url('https://example.com/path#frag').getEscapedPath()", "/path"],
  ["url('/a') == url('/a')", true],
  ["url('/a') == url('/b')", false],
]);

table("ip library", [
  ["isIP('127.0.0.1')", true],
  ["isIP('::1')", true],
  ["isIP('127.0.0.256')", false],
  ["isIP(':::1')", false],
  ["isIP('::ffff:1.2.3.4')", false],
  ["isIP('fe80::1%eth0')", false],
  ["isIP('127.0.0.01')", false],
  ["ip('127.0.0.256')", err('IP Address "127.0.0.256" parse error during conversion from string: ParseAddr("127.0.0.256"): IPv4 field has value >255')],
  ["ip(':::1')", err('IP Address ":::1" parse error during conversion from string: ParseAddr(":::1"): each colon-separated field must have at least one digit (at ":1")')],
  ["ip('::ffff:1.2.3.4')", err('IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed')],
  ["ip('fe80::1%eth0')", err('IP address "fe80::1%eth0" with zone value is not allowed')],
  ["ip('01.2.3.4')", err(/IPv4 field has octet with leading zero$/)],
  ["ip('1.2.3')", err(/IPv4 address too short$/)],
  ["ip('abc')", err(/ParseAddr\("abc"\): unable to parse IP$/)],
  ["ip.isCanonical('127.0.0.1')", true],
  ["ip.isCanonical('2001:db8::abcd')", true],
  ["ip.isCanonical('2001:DB8::ABCD')", false],
  ["ip.isCanonical('2001:db8::0:0:0:abcd')", false],
  ["ip.isCanonical('bad')", err(/parse error during conversion from string/)],
  ["ip('127.0.0.1').family()", 4n],
  ["ip('::1').family() == 6", true],
  ["ip('0.0.0.0').isUnspecified()", true],
  ["ip('127.0.0.1').isUnspecified()", false],
  ["ip('::').isUnspecified()", true],
  ["ip('::1').isUnspecified()", false],
  ["ip('127.0.0.1').isLoopback()", true],
  ["ip('192.168.0.1').isLoopback()", false],
  ["ip('::1').isLoopback()", true],
  ["ip('2001:db8::abcd').isLoopback()", false],
  ["ip('224.0.0.1').isLinkLocalMulticast()", true],
  ["ip('224.0.1.1').isLinkLocalMulticast()", false],
  ["ip('ff02::1').isLinkLocalMulticast()", true],
  ["ip('fd00::1').isLinkLocalMulticast()", false],
  ["ip('169.254.169.254').isLinkLocalUnicast()", true],
  ["ip('192.168.0.1').isLinkLocalUnicast()", false],
  ["ip('fe80::1').isLinkLocalUnicast()", true],
  ["ip('fd80::1').isLinkLocalUnicast()", false],
  ["ip('192.168.0.1').isGlobalUnicast()", true],
  ["ip('255.255.255.255').isGlobalUnicast()", false],
  ["ip('2001:db8::abcd').isGlobalUnicast()", true],
  ["ip('ff00::1').isGlobalUnicast()", false],
  ["string(ip('2001:0db8:0:0:1:0:0:1'))", "2001:db8::1:0:0:1"],
  ["string(ip('1:0:0:2:0:0:0:3'))", "1:0:0:2::3"],
  ["ip('::1') == ip('0:0:0:0:0:0:0:1')", true],
  ["ip('::1') == ip('::2')", false],
]);

table("cidr library", [
  ["isCIDR('192.168.0.0/16')", true],
  ["isCIDR('::1/128')", true],
  ["isCIDR('192.168.0.0/33')", false],
  ["isCIDR('::1/129')", false],
  ["isCIDR('192.168.0.0')", false],
  ["isCIDR('192.168.0.0/08')", false],
  ["isCIDR('::ffff:1.2.3.4/120')", false],
  [
    "cidr('192.168.0.0/')",
    err('network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("192.168.0.0/"): bad bits after slash: ""'),
  ],
  ["cidr('192.168.0.0/33')", err(/netip.ParsePrefix\("192.168.0.0\/33"\): prefix length out of range$/)],
  ["cidr('192.168.0.0')", err(/netip.ParsePrefix\("192.168.0.0"\): no '\/'$/)],
  ["cidr('192.168.0.0/24').containsIP(ip('192.168.0.1'))", true],
  ["cidr('192.168.0.0/24').containsIP(ip('192.168.1.1'))", false],
  ["cidr('192.168.0.0/24').containsIP('192.168.0.1')", true],
  ["cidr('192.168.0.0/24').containsIP('192.168.1.1')", false],
  ["cidr('192.168.0.0/24').containsIP(ip('::1'))", false],
  ["cidr('192.168.0.0/24').containsCIDR(cidr('192.168.0.0/25'))", true],
  ["cidr('192.168.0.0/24').containsCIDR(cidr('192.168.0.0/23'))", false],
  ["cidr('192.168.0.0/24').containsCIDR('192.168.0.0/25')", true],
  ["cidr('192.168.0.0/24').containsCIDR('192.168.0.0/23')", false],
  ["cidr('2001:db8::/32').containsIP('2001:db8::1')", true],
  ["cidr('2001:db8::/32').containsIP('2001:dc8::1')", false],
  ["cidr('2001:db8::/32').containsCIDR(cidr('2001:db8::/33'))", true],
  ["cidr('2001:db8::/32').containsCIDR('2001:db8::/31')", false],
  ["cidr('192.168.0.0/24').ip() == ip('192.168.0.0')", true],
  ["cidr('192.168.0.1/24').ip().family()", 4n],
  ["cidr('::1/128').ip().family()", 6n],
  ["cidr('192.168.0.0/24').masked() == cidr('192.168.0.0/24')", true],
  ["cidr('192.168.0.1/24').masked() == cidr('192.168.0.0/24')", true],
  ["cidr('192.168.0.1/24') == cidr('192.168.0.1/24').masked()", false],
  ["string(cidr('2001:db8:1::/32').masked())", "2001:db8::/32"],
  ["cidr('192.168.0.0/16').prefixLength()", 16n],
  ["cidr('::1/128').prefixLength()", 128n],
  ["string(cidr('192.168.0.0/24'))", "192.168.0.0/24"],
]);

table("semver library", [
  ["isSemver('1.0.0')", true],
  ["isSemver('0.1.0-alpha.1')", true],
  ["isSemver('1.0.0+build.5')", true],
  ["isSemver('hello')", false],
  ["isSemver('v1.0')", false],
  ["isSemver('1.0')", false],
  ["isSemver('01.0.0')", false],
  ["isSemver('1.0.0-01')", false],
  ["isSemver('v1.0', true)", true],
  ["isSemver('1.0', true)", true],
  ["isSemver('01.01.01', true)", true],
  ["isSemver('1.0-alpha', true)", false],
  ["semver('200K')", err("No Major.Minor.Patch elements found")],
  ["semver('01.0.0')", err('Major number must not contain leading zeroes "01"')],
  ["semver('1.x.0')", err('Invalid character(s) found in minor number "x"')],
  ["semver('1.0.0-')", err("Prerelease is empty")],
  ["semver('1.0', true) == semver('1.0.0')", true],
  ["semver('v1.0.0', true) == semver('1.0.0')", true],
  ["semver('1.0', true).patch()", 0n],
  ["semver('01.01.01', true) == semver('1.1.1')", true],
  ["semver('1.2.3').major()", 1n],
  ["semver('1.2.3').minor()", 2n],
  ["semver('1.2.3').patch()", 3n],
  ["semver('1.2.3').compareTo(semver('1.2.3'))", 0n],
  ["semver('1.2.3').compareTo(semver('2.0.0'))", -1n],
  ["semver('1.2.3').compareTo(semver('0.1.2'))", 1n],
  ["semver('1.2.3').isLessThan(semver('1.10.0'))", true],
  ["semver('1.0.0-alpha').isLessThan(semver('1.0.0'))", true],
  ["semver('1.0.0-alpha.1').isLessThan(semver('1.0.0-alpha.beta'))", true],
  ["semver('1.0.0-beta.2').isLessThan(semver('1.0.0-beta.11'))", true],
  ["semver('1.0.0-rc.1').isGreaterThan(semver('1.0.0-beta.11'))", true],
  ["semver('1.0.0+build') == semver('1.0.0')", true],
  ["semver('1.0.0') == semver('1.0.1')", false],
]);

const LABEL_ERR =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

table("format library", [
  ["format.dns1123Label().validate('my-label-name').hasValue()", false],
  ["format.dns1123Label().validate('My_Label').value()", [LABEL_ERR]],
  ["format.dns1123Label().validate('" + "a".repeat(64) + "').value()[0]", "must be no more than 63 characters"],
  ["format.dns1123Subdomain().validate('apiextensions.k8s.io').hasValue()", false],
  ["format.dns1123Subdomain().validate('Apiextensions.k8s.io').hasValue()", true],
  ["format.dns1035Label().validate('my-label-name').hasValue()", false],
  ["format.dns1035Label().validate('1abc').hasValue()", true],
  ["format.qualifiedName().validate('apiextensions.k8s.io/v1beta1').hasValue()", false],
  ["format.qualifiedName().validate('a/b/c').hasValue()", true],
  ["format.dns1123LabelPrefix().validate('my-label-prefix-').hasValue()", false],
  ["format.dns1123Label().validate('my-label-prefix-').hasValue()", true],
  ["format.dns1123SubdomainPrefix().validate('mysubdomain.prefix.-').hasValue()", false],
  ["format.dns1035LabelPrefix().validate('my-label-prefix-').hasValue()", false],
  ["format.labelValue().validate('').hasValue()", false],
  ["format.labelValue().validate('-bad').hasValue()", true],
  ["format.uri().validate('http://example.com').hasValue()", false],
  ["format.uri().validate('relative').value()", ['parse "relative": invalid URI for request']],
  ["format.uuid().validate('123e4567-e89b-12d3-a456-426614174000').hasValue()", false],
  ["format.uuid().validate('not-a-uuid').value()", ["does not match the UUID format"]],
  ["format.byte().validate('aGVsbG8=').hasValue()", false],
  ["format.byte().validate('aGVsbG8').value()", ["invalid base64"]],
  ["format.date().validate('2021-01-01').hasValue()", false],
  ["format.date().validate('2021-02-30').value()", ["invalid date"]],
  ["format.datetime().validate('2021-01-01T00:00:00Z').hasValue()", false],
  ["format.datetime().validate('yesterday').value()", ["invalid datetime"]],
  ["format.named('dns1123Label').hasValue()", true],
  ["format.named('dns1123Label').value().validate('ok').hasValue()", false],
  ["format.named('nope').hasValue()", false],
  ["format.named('nope').value()", err("optional.none() dereference")],
  ["format.dns1123Label().validate('BAD').orValue(['fine'])", [LABEL_ERR]],
  ["format.dns1123Label().validate('ok').orValue(['fine'])", ["fine"]],
]);

table("optional values", [
  ["optional.of(1).hasValue()", true],
  ["optional.of(1).value()", 1n],
  ["optional.none().hasValue()", false],
  ["optional.none().orValue('x')", "x"],
  ["optional.none().or(optional.of(2)).value()", 2n],
  ["optional.of(1).or(optional.of(2)).value()", 1n],
  ["optional.ofNonZeroValue('').hasValue()", false],
  ["optional.ofNonZeroValue([]).hasValue()", false],
  ["optional.ofNonZeroValue(0).hasValue()", false],
  ["optional.ofNonZeroValue('a').hasValue()", true],
  ["optional.none() == optional.none()", true],
  ["optional.of('a') == optional.of('a')", true],
  ["optional.of('a') == optional.none()", false],
  ["optional.unwrap([optional.of(1), optional.none(), optional.of(3)])", [1n, 3n]],
  ["optional.unwrap([1])", err(/no such overload/)],
  ["type(optional.none()) == type(optional.of(1))", true],
]);

table("strings extension (version 2)", [
  ["'hello'.charAt(1)", "e"],
  ["'hello'.indexOf('l')", 2n],
  ["'hello'.lastIndexOf('l')", 3n],
  ["'TacoCat'.lowerAscii()", "tacocat"],
  ["'TacoCat'.upperAscii()", "TACOCAT"],
  ["'hello hello'.replace('he', 'we', 1)", "wello hello"],
  ["'a,b,c'.split(',')", ["a", "b", "c"]],
  ["'tacocat'.substring(4)", "cat"],
  ["'  trim  '.trim()", "trim"],
  ["['a', 'b'].join('-')", "a-b"],
  ["strings.quote('a\"b')", '"a\\"b"'],
]);

describe("SUPPORTED_CEL_FUNCTIONS", () => {
  it("has the standard functions, the macros and every library function", () => {
    for (const name of ["format.named", "format.dns1123Label", "validate", "optional.of", "hasValue", "size", "matches", "has", "exists_one", "all", "map", "filter", "_+_", "_&&_", "quantity", "sets.contains", "ip.isCanonical", "findAll", "semver", "url", "cidr", "split"]) {
      assert.ok(SUPPORTED_CEL_FUNCTIONS.has(name), name);
    }
  });

  it("has no function LocalCluster does not implement", () => {
    for (const name of ["optMap", "transformList", "image", "mul", "includes", "reverse", "fieldSelector"]) {
      assert.ok(!SUPPORTED_CEL_FUNCTIONS.has(name), name);
    }
  });
});

describe("UNSUPPORTED_KUBERNETES_FUNCTIONS", () => {
  it("gives a reason for each, and none is implemented", () => {
    assert.ok(UNSUPPORTED_KUBERNETES_FUNCTIONS.size > 20);
    for (const [name, why] of UNSUPPORTED_KUBERNETES_FUNCTIONS) {
      assert.ok(why.length > 20, name);
      if (name !== "value" && name !== "error" && name !== "name" && name !== "path") assert.ok(!SUPPORTED_CEL_FUNCTIONS.has(name), `${name} is both supported and unsupported`);
    }
    assert.match(UNSUPPORTED_KUBERNETES_FUNCTIONS.get("optMap")!, /optional/);
    assert.match(UNSUPPORTED_KUBERNETES_FUNCTIONS.get("check")!, /authorizer/);
  });
});
