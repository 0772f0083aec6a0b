// ESLint: roblox-ts rules for the library and its specs, plain TypeScript rules for the Node parts
// (reference service, scripts). Formatting is Prettier's job, so its conflicting rules are off.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import robloxTs from "eslint-plugin-roblox-ts";
import prettier from "eslint-config-prettier";

const nodeGlobals = {
	process: "readonly",
	console: "readonly",
	Buffer: "readonly",
	setTimeout: "readonly",
	clearTimeout: "readonly",
	setInterval: "readonly",
	clearInterval: "readonly",
	URL: "readonly",
	fetch: "readonly",
	AbortController: "readonly",
};

// The library's layers (CONTRIBUTING.md#layers), checked here rather than by review: each folder of src/ may import only the
// folders below it. shared/ (wire contracts and small helpers both sides of the game use) is below everything;
// client/ runs on players' devices and sees only shared/.
const LAYERS = {
	shared: [],
	transport: ["shared"],
	// Roblox's own services as StaffOps uses them (text filter, chat permission, players, group ranks): both the call
	// bridge and the server integration need them, so they sit below both.
	roblox: ["transport", "shared"],
	api: ["transport", "shared"],
	background: ["api", "transport", "shared"],
	bridge: ["roblox", "background", "api", "transport", "shared"],
	server: ["bridge", "roblox", "background", "api", "transport", "shared"],
	client: ["shared"],
};
const layerRules = Object.entries(LAYERS).map(([layer, allowed]) => {
	const forbidden = Object.keys(LAYERS).filter((other) => other !== layer && !allowed.includes(other));
	return {
		files: [`src/${layer}/**/*.ts`],
		rules: {
			"no-restricted-imports": [
				"error",
				{
					patterns: forbidden.map((other) => ({
						regex: `^(\\.\\./)+(${other})(/|$)`,
						message: `src/${layer} may import only from ${allowed.join(", ") || "itself"} (CONTRIBUTING.md#layers)`,
					})),
				},
			],
		},
	};
});

export default tseslint.config(
	// Luau is StyLua's and selene's (scripts/luau.mjs).
	{
		ignores: [
			"node_modules/",
			"out/",
			"build/",
			"include/",
			"test/wally-consumer/ServerPackages/",
			"**/*.luau",
			"**/*.lua",
		],
	},
	{
		files: ["src/**/*.ts", "test/**/*.ts"],
		extends: [...tseslint.configs.recommended, robloxTs.configs.recommended],
		languageOptions: {
			parser: tseslint.parser,
			// One program for library and specs: tsconfig.test.json covers both.
			parserOptions: {
				projectService: false,
				project: "./tsconfig.test.json",
				tsconfigRootDir: import.meta.dirname,
			},
		},
		rules: {
			"@typescript-eslint/no-namespace": "off",
			"@typescript-eslint/no-empty-object-type": "off",
			// In roblox-ts, require() is Roblox's ModuleScript require, not a CommonJS import.
			"@typescript-eslint/no-require-imports": "off",
		},
	},
	{
		files: ["service/**/*.ts"],
		extends: [...tseslint.configs.recommended],
		languageOptions: { globals: nodeGlobals },
	},
	{
		files: ["scripts/**/*.mjs", "eslint.config.mjs"],
		extends: [js.configs.recommended],
		languageOptions: { globals: nodeGlobals, sourceType: "module" },
	},
	...layerRules,
	prettier,
);
