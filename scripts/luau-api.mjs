// The Luau types against the TypeScript API, for scripts/luau-types.mjs: reads the package's built declarations
// (out/index.d.ts, what roblox-ts users get) with the TypeScript compiler, so it follows whatever shape src/ takes, and
// compares them with the types model/init.luau declares by hand.
//
// - Every Luau table type named like an export of the package (`ApiClient` is `StaffOpsApiClient`, `StaffOpsNamespace`
//   is `StaffOps`, `Connection` is `SignalConnection`) has exactly the TypeScript type's public members,
//   less the few listed in NOT_FOR_LUAU with the reason.
// - Every exported type those members name in TypeScript (a method's answer, a field's type) has a Luau type of the
//   same name, so a new member cannot be typed with a type Luau users cannot name.
// - Each field of StaffOpsModule, what `require` gives, is a value the package exports.
import { existsSync } from "node:fs";
import ts from "typescript";

const DECLARATIONS = "out/index.d.ts";

/** Luau type name -> the TypeScript export it states, where the two names differ. */
const TS_NAME = { ApiClient: "StaffOpsApiClient", StaffOpsNamespace: "StaffOps", Connection: "SignalConnection" };

/** TypeScript members and types deliberately not typed for Luau, each with the reason. */
export const NOT_FOR_LUAU = {
	"*.toString": "a roblox-ts class's toString; Luau code uses tostring()",
	"StaffOps.start:ServerSeams": "the test seams (start's second argument) are for specs, not games",
	"StaffOpsApiClient.getBudget": "the shared request budget is tuned through the `budget` setting in Luau",
	"StaffOpsServer.getSupportDesk": "Luau games start support calls with StaffOps.requestCall",
	"StaffOpsConfig.budget:RequestBudget":
		"a shared RequestBudget object is made in TypeScript; Luau gives BudgetOptions",
	"ApiClientConfig.budget:RequestBudget":
		"a shared RequestBudget object is made in TypeScript; Luau gives BudgetOptions",
};

/**
 * The records the service answers with, which the Luau types state as one `Record` (`{ _id: string, [string]: any }`):
 * their many optional fields read as `any` (docs/luau-types.md).
 */
const RECORDS = new Set([
	"ActivitySession",
	"ActivitySummary",
	"HistoryItem",
	"HistoryListItem",
	"Order",
	"RunningGame",
	"RunningPlayer",
	"SupportTicket",
	"TimeOffRequest",
	"Workspace",
]);

function program() {
	const config = ts.getParsedCommandLineOfConfigFile(
		"tsconfig.json",
		{},
		{ ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
	);
	const options = { ...config.options, noEmit: true, incremental: false, declaration: false, rootDir: undefined };
	return ts.createProgram([DECLARATIONS], options);
}

/** The package's exported names and, for each type or namespace, its public members and the types they name. */
export function typescriptApi() {
	if (!existsSync(DECLARATIONS)) throw new Error(`${DECLARATIONS} is missing; run npm run build first`);
	const prog = program();
	const checker = prog.getTypeChecker();
	const source = prog.getSourceFile(DECLARATIONS);
	const resolve = (symbol) => (symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol);
	const exported = new Map(checker.getExportsOfModule(checker.getSymbolAtLocation(source)).map((s) => [s.name, s]));
	const values = new Set(
		[...exported].filter(([, symbol]) => resolve(symbol).flags & ts.SymbolFlags.Value).map(([name]) => name),
	);

	function properties(type) {
		if (type.isUnionOrIntersection()) return type.types.flatMap(properties);
		return checker.getPropertiesOfType(type);
	}
	const isPublic = (property) =>
		!(property.declarations ?? []).some(
			(declaration) =>
				ts.getCombinedModifierFlags(declaration) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected),
		) && !property.name.startsWith("#");

	// The exported types a declaration names (type references anywhere in it), by their exported name.
	function namedTypes(declaration) {
		const names = new Set();
		const visit = (node) => {
			if (ts.isTypeReferenceNode(node)) {
				const symbol = checker.getSymbolAtLocation(node.typeName);
				const target = symbol && resolve(symbol);
				if (target && exported.has(target.name)) names.add(target.name);
			}
			ts.forEachChild(node, visit);
		};
		visit(declaration);
		return names;
	}

	/** Public members of an export (a class's instance side, an interface, a type alias, a namespace, a constant). */
	function members(name) {
		const symbol = exported.has(name) ? resolve(exported.get(name)) : undefined;
		if (symbol === undefined) return undefined;
		// A namespace or a constant (`StaffOps`, built from the features' faces) has its value's members; a class, an
		// interface or a type alias its declared type's.
		const isValue =
			symbol.flags & (ts.SymbolFlags.Module | ts.SymbolFlags.Variable) && !(symbol.flags & ts.SymbolFlags.Class);
		const type = isValue ? checker.getTypeOfSymbol(symbol) : checker.getDeclaredTypeOfSymbol(symbol);
		const found = new Map();
		for (const property of properties(type).filter(isPublic)) {
			const named = found.get(property.name) ?? new Set();
			for (const declaration of property.declarations ?? [])
				for (const n of namedTypes(declaration)) named.add(n);
			found.set(property.name, named);
		}
		return found;
	}
	return { values, types: new Set(exported.keys()), members };
}

// Strips `--` comments (the Luau types hold no string with `--` in it).
function withoutComments(source) {
	return source.replace(/--\[\[[\s\S]*?\]\]/g, "").replace(/--[^\n]*/g, "");
}

/** Each `export type NAME = { ... }` of a Luau source: its first-level field names (`name:` or `["name"]:`). */
export function luauTableTypes(source) {
	const text = withoutComments(source);
	const types = new Map();
	for (const match of text.matchAll(/^export type (\w+)(?:<[^>]*>)? = \{/gm)) {
		const open = match.index + match[0].length - 1;
		let depth = 0;
		let piece = "";
		const fields = new Set();
		const take = () => {
			const field = /^\s*(?:\["(\w+)"\]|(\w+))\s*:/.exec(piece);
			if (field) fields.add(field[1] ?? field[2]);
			piece = "";
		};
		for (let i = open; i < text.length; i++) {
			const c = text[i];
			if (c === "{" || c === "(") depth += 1;
			if (c === "}" || c === ")") depth -= 1;
			if (depth === 0) break;
			if (depth === 1 && c === ",") take();
			else if (!(depth === 1 && c === "{" && i === open)) piece += c;
		}
		take();
		types.set(match[1], fields);
	}
	return types;
}

/** Every `export type NAME` of a Luau source. */
export function luauTypeNames(source) {
	return new Set([...withoutComments(source).matchAll(/^(?:export )?type (\w+)/gm)].map((m) => m[1]));
}

/**
 * The comparison as checks: `{ label, ok, detail }` per compared type, one for the named types and one for the
 * module's values. `api` is typescriptApi()'s answer (a parameter so a test can hand it a changed one).
 */
export function compareWithTypescript(luauSource, api) {
	const checks = [];
	const tables = luauTableTypes(luauSource);
	const luauNames = luauTypeNames(luauSource);
	const luauNameOf = new Map(Object.entries(TS_NAME).map(([luau, typescript]) => [typescript, luau]));
	const skipped = (tsName, member) => `*.${member}` in NOT_FOR_LUAU || `${tsName}.${member}` in NOT_FOR_LUAU;
	const missingTypes = [];
	let compared = 0;
	for (const [luauName, luauFields] of tables) {
		const tsName = TS_NAME[luauName] ?? luauName;
		const tsMembers = api.members(tsName);
		if (tsMembers === undefined) continue; // a Luau-only type (StaffOpsModule, Promise, ...)
		compared += 1;
		const missing = [...tsMembers.keys()].filter((name) => !luauFields.has(name) && !skipped(tsName, name));
		const extra = [...luauFields].filter((name) => !tsMembers.has(name));
		const detail = [
			missing.length > 0 ? `in TypeScript, not in Luau: ${missing.sort().join(", ")}` : "",
			extra.length > 0 ? `in Luau, not in TypeScript: ${extra.sort().join(", ")}` : "",
		]
			.filter(Boolean)
			.join("; ");
		checks.push({ label: `Luau ${luauName} has ${tsName}'s members`, ok: detail === "", detail });
		for (const [member, named] of tsMembers) {
			if (!luauFields.has(member)) continue;
			for (const type of named) {
				const luauType = RECORDS.has(type) ? "Record" : (luauNameOf.get(type) ?? type);
				if (!luauNames.has(luauType) && !(`${tsName}.${member}:${type}` in NOT_FOR_LUAU))
					missingTypes.push(`${type} (${tsName}.${member})`);
			}
		}
	}
	checks.push({
		label: `the ${compared} types compared name no TypeScript type that Luau lacks`,
		ok: compared > 0 && missingTypes.length === 0,
		detail: `no Luau type for ${[...new Set(missingTypes)].sort().join(", ")}`,
	});
	const moduleFields = tables.get("StaffOpsModule") ?? new Set();
	const notValues = [...moduleFields].filter((name) => !api.values.has(name));
	checks.push({
		label: `each of StaffOpsModule's ${moduleFields.size} fields is a value the package exports`,
		ok: moduleFields.size > 0 && notValues.length === 0,
		detail: `not exported: ${notValues.join(", ")}`,
	});
	return checks;
}
