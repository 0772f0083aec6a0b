// The settings are declared once, in their features (src/server/features/<feature>/: each `FeatureDeclaration` literal
// names its settings with their attribute, default, range and Luau type, and its client parts). The build writes
// what follows from them, and checks the rest against them, stopping when one disagrees:
// - written: model/init.meta.json, the model's attributes (what Studio's Properties panel lists) with the values the
//   model ships (not in git: the build writes it before Rojo reads it; model/Bootstrap.server.luau reads the same
//   declarations from the library at run time, so it lists none);
// - written: the fields of the Luau config type, the generated region of `StaffOpsConfig` in model/init.luau;
// - written: src/shared/remoteNames.ts, the `RemoteName` type: every remote a feature declares, so a feature's server
//   module and its client part name the remote as a string the compiler checks, with no protocol module to hold it
//   (in git, so the sources compile before a build; the build writes it before it compiles);
// - checked: each feature's settings interface (the TypeScript config type, src/server/config.ts, is their
//   intersection) has exactly the top-level fields of the settings its declaration lists;
// - checked: the README's attribute table lists every attribute with the model's default;
// - checked: every client part a feature declares is a module of src/client/ exporting that start function (the
//   server hands the drop-in model's loader the declared list, so the loader keeps none).
// `node scripts/model-settings.mjs` writes and checks on its own; `--check` only checks (and says what is stale).
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { posix } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";

const FEATURES = "src/server/features";
const MODEL_META = "model/init.meta.json";
const LUAU_ENTRY = "model/init.luau";
const LUAU_BEGIN =
	"\t-- generated from the features' declarations by scripts/model-settings.mjs (the build): edit those\n";
const LUAU_END = "\t-- end of the generated settings\n";
const REMOTE_NAMES = "src/shared/remoteNames.ts";

/**
 * The constants a feature file imports by name from a module of the project (`import { X } from "../sync"`), each
 * `export const X = <literal>` there: what a declaration naming a constant stands for (a remote,
 * `remotes: [CALL_EVENTS_REMOTE]`; a default, `default: SYNC_IDLE_SECONDS`), so the value is written once, where the
 * code that uses it lives.
 */
function importedConstants(source) {
	const constants = new Map();
	for (const statement of source.statements) {
		if (!ts.isImportDeclaration(statement) || statement.importClause?.isTypeOnly) continue;
		const specifier = statement.moduleSpecifier.text;
		const names = statement.importClause?.namedBindings;
		if (!specifier.startsWith(".") || names === undefined || !ts.isNamedImports(names)) continue;
		const base = posix.join(posix.dirname(source.fileName), specifier);
		const file = [`${base}.ts`, `${base}/index.ts`].find(existsSync);
		if (file === undefined) continue;
		const wanted = new Map(names.elements.map((element) => [(element.propertyName ?? element.name).text, element]));
		const module = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
		for (const exported of module.statements) {
			if (!ts.isVariableStatement(exported)) continue;
			if (!exported.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)) continue;
			for (const variable of exported.declarationList.declarations) {
				const element = wanted.get(variable.name.getText());
				const value = variable.initializer === undefined ? undefined : literal(variable.initializer);
				if (element !== undefined && value !== undefined) constants.set(element.name.text, value);
			}
		}
	}
	return constants;
}

/**
 * A literal's value (string, number, boolean, array or object of them, or a name among `constants`); undefined for
 * anything else.
 */
function literal(node, constants = new Map()) {
	if (ts.isIdentifier(node)) return constants.get(node.text);
	if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
	if (ts.isNumericLiteral(node)) return Number(node.text);
	if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.MinusToken)
		return -literal(node.operand, constants);
	if (node.kind === ts.SyntaxKind.TrueKeyword) return true;
	if (node.kind === ts.SyntaxKind.FalseKeyword) return false;
	if (ts.isArrayLiteralExpression(node)) return node.elements.map((element) => literal(element, constants));
	if (ts.isObjectLiteralExpression(node)) {
		const object = {};
		for (const property of node.properties) {
			if (ts.isPropertyAssignment(property))
				object[property.name.getText()] = literal(property.initializer, constants);
		}
		return object;
	}
	return undefined;
}

/** The names of the declarations `features/index.ts` lists in `DECLARATIONS`, in its (start) order. */
function declarationOrder() {
	const text = readFileSync(`${FEATURES}/index.ts`, "utf8");
	const list = /export const DECLARATIONS[^=]*= \[([^\]]*)\]/.exec(text);
	if (list === null) throw new Error(`cannot find DECLARATIONS in ${FEATURES}/index.ts`);
	return [...list[1].matchAll(/\w+/g)].map((match) => match[0]);
}

/**
 * Every `const X: FeatureDeclaration = { ... }` of the features' folders, read as plain data, in `DECLARATIONS`' order
 * (those it does not list last, by file).
 */
export function featureDeclarations() {
	const order = declarationOrder();
	const rank = (declaration) => {
		const at = order.indexOf(declaration.constName);
		return at < 0 ? order.length : at;
	};
	const declarations = [];
	for (const file of readdirSync(FEATURES, { recursive: true }).sort()) {
		if (!file.endsWith(".ts")) continue;
		const path = `${FEATURES}/${file.split("\\").join("/")}`;
		const source = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
		const constants = importedConstants(source);
		source.forEachChild(function visit(node) {
			if (
				ts.isVariableDeclaration(node) &&
				node.type !== undefined &&
				ts.isTypeReferenceNode(node.type) &&
				node.type.typeName.getText() === "FeatureDeclaration" &&
				node.initializer !== undefined
			) {
				// `FeatureDeclaration<XConfig, "name">`; `{}` for a feature without settings.
				const typeArgument = node.type.typeArguments?.[0]?.getText();
				const configType = typeArgument === "{}" ? undefined : typeArgument;
				// A remote or a default may be a constant the file imports (undefined when it is none).
				const declaration = literal(node.initializer, constants);
				declarations.push({ file: path, constName: node.name.getText(), configType, ...declaration });
			}
			node.forEachChild(visit);
		});
	}
	return declarations.sort((a, b) => rank(a) - rank(b));
}

const modelValue = (setting) => (setting.modelDefault !== undefined ? setting.modelDefault : setting.default);

/** The model's attributes, in declaration order: each declared attribute with the value the model ships. */
export function modelAttributes(declarations = featureDeclarations()) {
	const attributes = {};
	for (const setting of declarations.flatMap((declaration) => declaration.settings)) {
		if (setting.attribute !== undefined && modelValue(setting) !== undefined)
			attributes[setting.attribute] = modelValue(setting);
	}
	return attributes;
}

/** The Luau type of each top-level setting field, in declaration order (its `luau`, or its default's type). */
export function luauConfigFields(declarations = featureDeclarations()) {
	const fields = new Map();
	for (const setting of declarations.flatMap((declaration) => declaration.settings)) {
		const field = setting.field.split(".")[0];
		if (fields.has(field)) continue;
		const value = modelValue(setting);
		const derived = ["boolean", "number", "string"].includes(typeof value) ? `${typeof value}?` : undefined;
		const type = setting.luau ?? derived;
		if (type === undefined) throw new Error(`${setting.field} needs a \`luau\` type: its default does not say it`);
		fields.set(field, type);
	}
	return fields;
}

/** src/shared/remoteNames.ts: the `RemoteName` type, one line per declared remote, in declaration order. */
function remoteNamesText(declarations) {
	const names = declarations.flatMap((declaration) => declaration.remotes ?? []).filter((name) => name !== undefined);
	return [
		"// Generated from the features' declarations by scripts/model-settings.mjs (the build): edit those, not this file.",
		"",
		"/**",
		" * The name of a remote StaffOps creates: one for each that a feature's declaration lists in `remotes`. The server",
		" * creates them at `begin` (`ctx.remotes`) and a client part waits for its own (`waitForRemote`), each naming it as",
		" * a string the compiler checks against this list.",
		" * @internal",
		" */",
		"// prettier-ignore",
		`export type RemoteName =${names.length === 0 ? " never;" : ""}`,
		...names.map((name, index) => `\t| ${JSON.stringify(name)}${index === names.length - 1 ? ";" : ""}`),
		"",
	].join("\n");
}

/** The generated texts: model/init.meta.json, model/init.luau with its generated region filled in, the remote names. */
export function generatedFiles(declarations = featureDeclarations()) {
	const meta = `${JSON.stringify({ attributes: modelAttributes(declarations) }, null, 2)}\n`;
	const entry = readFileSync(LUAU_ENTRY, "utf8");
	const begin = entry.indexOf(LUAU_BEGIN);
	const end = entry.indexOf(LUAU_END);
	if (begin < 0 || end < begin) throw new Error(`${LUAU_ENTRY} lacks the generated region's markers`);
	const lines = [...luauConfigFields(declarations)].map(([field, type]) => `\t${field}: ${type},\n`);
	const luau = entry.slice(0, begin + LUAU_BEGIN.length) + lines.join("") + entry.slice(end);
	return { [MODEL_META]: meta, [LUAU_ENTRY]: luau, [REMOTE_NAMES]: remoteNamesText(declarations) };
}

/** Writes the generated files that differ; answers the paths it wrote. */
export function writeGeneratedFiles() {
	const written = [];
	for (const [path, text] of Object.entries(generatedFiles())) {
		if (!existsSync(path) || readFileSync(path, "utf8") !== text) {
			writeFileSync(path, text);
			written.push(path);
		}
	}
	return written;
}

/** The property names of `interface NAME` or `type NAME = {` in a source text. */
function fieldsOf(source, opener) {
	const start = source.indexOf(opener);
	if (start < 0) throw new Error(`cannot find ${opener}`);
	const body = source.slice(start + opener.length, source.indexOf("\n}", start));
	return new Set([...body.matchAll(/^\t(?:readonly )?(\w+)\??:/gm)].map((match) => match[1]));
}

/** What disagrees with the features' declarations (an empty list when everything agrees). */
export function modelSettingProblems() {
	const problems = [];
	const declarations = featureDeclarations();
	const settings = declarations.flatMap((declaration) => declaration.settings);
	const withAttribute = settings.filter((setting) => setting.attribute !== undefined);

	// The generated files: as the declarations give them (the build writes them first).
	for (const [path, text] of Object.entries(generatedFiles(declarations)))
		if (!existsSync(path) || readFileSync(path, "utf8") !== text)
			problems.push(`${path} is not what the declarations give: run node scripts/model-settings.mjs`);

	// The model's attributes: each declared one, with the value the model ships, and no other.
	const attributes = existsSync(MODEL_META) ? JSON.parse(readFileSync(MODEL_META, "utf8")).attributes : {};
	const declaredAttributes = new Set(withAttribute.map((setting) => setting.attribute));
	for (const name of Object.keys(attributes)) {
		if (!declaredAttributes.has(name)) problems.push(`the model's attribute ${name} is declared by no feature`);
	}
	for (const setting of withAttribute) {
		const name = setting.attribute;
		const want = modelValue(setting);
		if (want === undefined) problems.push(`${name} (${setting.field}) declares no value for the model to ship`);
		if (!(name in attributes)) problems.push(`${name} (${setting.field}) is not an attribute of the model`);
		else if (attributes[name] !== want)
			problems.push(
				`${name}: the model says ${JSON.stringify(attributes[name])}, its feature ${JSON.stringify(want)}`,
			);
	}

	// The config types: every top-level field, in TypeScript and in Luau. The TypeScript type is the intersection of
	// each feature's settings interface (its declaration's type argument), so each is checked against its feature's
	// settings; the key source's two fields are in config.ts's StaffOpsKeySource.
	const topLevelOf = (list) => new Set(list.map((setting) => setting.field.split(".")[0]));
	const topLevel = topLevelOf(settings);
	const keySource = ["apiKey", "apiKeySecret"];
	const config = readFileSync("src/server/config.ts", "utf8");
	for (const field of keySource)
		if (!config.includes(`readonly ${field}`))
			problems.push(`StaffOpsKeySource (src/server/config.ts) lacks ${field}`);
	for (const declaration of declarations) {
		const own = topLevelOf(declaration.settings);
		for (const field of keySource) own.delete(field);
		const where = `${declaration.configType ?? "its settings interface"} (${declaration.file})`;
		if (declaration.configType === undefined) {
			if (own.size > 0)
				problems.push(`${declaration.file} declares settings but no FeatureDeclaration<...> interface`);
			continue;
		}
		const fields = fieldsOf(readFileSync(declaration.file, "utf8"), `export interface ${declaration.configType} {`);
		for (const field of own) if (!fields.has(field)) problems.push(`${where} lacks the setting ${field}`);
		for (const field of fields)
			if (!own.has(field)) problems.push(`${where} has ${field}, which its feature's settings do not declare`);
	}
	const luauFields = fieldsOf(readFileSync(LUAU_ENTRY, "utf8"), "export type StaffOpsConfig = {");
	for (const [where, fields] of [["StaffOpsConfig (model/init.luau)", luauFields]]) {
		for (const field of topLevel) if (!fields.has(field)) problems.push(`${where} lacks the setting ${field}`);
		for (const field of fields)
			if (!topLevel.has(field)) problems.push(`${where} has ${field}, which no feature declares`);
	}

	// The README's attribute table: every attribute, with the model's default.
	const readme = readFileSync("README.md", "utf8");
	const rows = readme.split("\n").filter((line) => /^\| `[A-Z]\w+`(, `[A-Z]\w+`)* +\|/.test(line));
	const listed = new Map();
	for (const row of rows) {
		const [names, value] = row
			.split("|")
			.slice(1, 3)
			.map((cell) => cell.trim());
		const inRow = [...names.matchAll(/`(\w+)`/g)].map((match) => match[1]);
		for (const name of inRow) listed.set(name, inRow.length === 1 ? value : undefined);
	}
	for (const setting of withAttribute) {
		const name = setting.attribute;
		if (!listed.has(name)) {
			problems.push(`the README's settings table lacks the attribute ${name}`);
			continue;
		}
		const want = modelValue(setting) === "" ? "(empty)" : `\`${modelValue(setting)}\``;
		const cell = listed.get(name);
		if (cell !== undefined && cell !== want)
			problems.push(`the README says ${name} defaults to ${cell}, its feature ${want}`);
	}

	// Each declared remote: a name, once.
	const seenRemotes = new Set();
	for (const declaration of declarations) {
		for (const name of declaration.remotes ?? []) {
			if (name === undefined)
				problems.push(`${declaration.file}: a remote is neither a string nor a string constant it imports`);
			else if (seenRemotes.has(name)) problems.push(`the remote ${name} is declared twice`);
			seenRemotes.add(name);
		}
	}

	// Each declared client part is a module of src/client/ with that start function (the loader starts what the
	// server hands it from these declarations, so it keeps no list to check).
	for (const part of declarations.flatMap((declaration) => declaration.clientParts)) {
		const file = [`src/client/${part.folder}/index.ts`, `src/client/${part.folder}.ts`].find(existsSync);
		if (file === undefined) problems.push(`the client part ${part.folder} has no module in src/client/`);
		else if (!readFileSync(file, "utf8").includes(`export function ${part.start}(`))
			problems.push(`${file} does not export ${part.start}, the start its feature declares`);
	}
	return problems;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
	if (!process.argv.includes("--check")) for (const path of writeGeneratedFiles()) console.log(`wrote ${path}`);
	const problems = modelSettingProblems();
	for (const problem of problems) console.error(problem);
	console.log(
		problems.length === 0
			? "the settings agree with their features' declarations"
			: `${problems.length} problem(s)`,
	);
	process.exit(problems.length === 0 ? 0 : 1);
}
