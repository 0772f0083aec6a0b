// The drop-in model's settings are declared twice, by necessity: model/init.meta.json gives the model its attributes
// (what Studio's Properties panel lists) and model/Bootstrap.server.luau's DEFAULTS tells an attribute left at its
// default from one the user set. The build stops when the two disagree.
import { readFileSync } from "node:fs";

function bootstrapDefaults() {
	const source = readFileSync("model/Bootstrap.server.luau", "utf8");
	const block = /^local DEFAULTS[^=]*= \{\n([\s\S]*?)\n\}/m.exec(source);
	if (block === null) throw new Error("model/Bootstrap.server.luau has no DEFAULTS table");
	const defaults = {};
	for (const line of block[1].split("\n")) {
		const entry = /^\s*(\w+) = (.+),$/.exec(line);
		if (entry === null) throw new Error(`cannot read this line of Bootstrap's DEFAULTS: ${line.trim()}`);
		defaults[entry[1]] = JSON.parse(entry[2]);
	}
	return defaults;
}

/** What differs between the model's attributes and Bootstrap's DEFAULTS (an empty list when they agree). */
export function modelSettingProblems() {
	const attributes = JSON.parse(readFileSync("model/init.meta.json", "utf8")).attributes;
	const defaults = bootstrapDefaults();
	const problems = [];
	for (const name of new Set([...Object.keys(attributes), ...Object.keys(defaults)])) {
		if (!(name in attributes))
			problems.push(`${name} is in Bootstrap's DEFAULTS but not an attribute of the model`);
		else if (!(name in defaults))
			problems.push(`the model's attribute ${name} is missing from Bootstrap's DEFAULTS`);
		else if (attributes[name] !== defaults[name])
			problems.push(
				`${name}: the model says ${JSON.stringify(attributes[name])}, Bootstrap ${JSON.stringify(defaults[name])}`,
			);
	}
	return problems;
}
