// The list of StaffOps' in-game features: their declarations in start order, and how each is built from those it uses.
import { CLIENT_REPORT, ClientReportFeature } from "./clientReport";
import { COMMANDS, CommandsFeature } from "./commands";
import { CONSENT, ConsentFeature } from "./consent";
import { CROSS_SERVER, CrossServerFeature } from "./crossServer";
import type { ServerContext } from "../context";
import { DASHBOARD_ACTIONS, DashboardActionsFeature } from "./dashboardActions";
import type { RemoteName } from "../../shared/remoteNames";
import type { FeatureFace } from "../face";
import type { AllTrue, CheckedTrue, Same } from "../../shared/typeChecks";
import type { ClientPartDeclaration, Feature, SettingDeclaration } from "../feature";
import { JOIN_SERVER, JoinServerFeature } from "./joinServer";
import { JOINS, JoinsFeature } from "./joins";
import { OUTAGE_BANS, OutageBansFeature } from "./outageBans";
import { PRESENCE, PresenceFeature } from "./presence";
import { SERVICE } from "./service";
import { SESSIONS, SessionsFeature } from "./sessions";
import { STAFF_ACTIVITY, StaffActivityFeature } from "./staffActivity";
import { STAFF_HINT, StaffHintFeature } from "./staffHint";
import { SUPPORT_CALLS, SupportCallsFeature } from "./supportCalls";

/**
 * Every feature's declaration, the service's connection first, then the features in start order: each uses only
 * those before it (see {@link buildFeatures}); players leave, and the server stops, in reverse. The config type is
 * derived from this list (`config.ts`), so it stays in the package's declarations; not an API.
 */
export const DECLARATIONS = [
	SERVICE,
	STAFF_HINT,
	SESSIONS,
	DASHBOARD_ACTIONS,
	CROSS_SERVER,
	JOINS,
	OUTAGE_BANS,
	PRESENCE,
	CLIENT_REPORT,
	CONSENT,
	STAFF_ACTIVITY,
	SUPPORT_CALLS,
	JOIN_SERVER,
	COMMANDS,
] as const;

/** Every feature's client parts, in start order: what the drop-in model's loader starts. @internal */
export function clientParts(): Array<ClientPartDeclaration> {
	const parts = new Array<ClientPartDeclaration>();
	for (const declaration of DECLARATIONS) for (const part of declaration.clientParts) parts.push(part);
	return parts;
}

/** Every feature's remote names, in start order: the remotes the server creates at `begin`. @internal */
export function remoteNames(): Array<RemoteName> {
	const names = new Array<RemoteName>();
	for (const declaration of DECLARATIONS) for (const name of declaration.remotes) names.push(name);
	return names;
}

/** One attribute of the drop-in model: the setting it feeds and the value the model ships. @internal */
export interface ModelAttribute {
	readonly attribute: string;
	/** The setting's field; a nested one is written `sessions.reportLeaves`. */
	readonly field: string;
	readonly modelDefault: string | number | boolean;
}

/**
 * Every setting's attribute, in declaration order: what the drop-in model's Bootstrap reads (it requires this module
 * before it reads the model's attributes), so it has no list of its own to keep.
 * @internal
 */
export function modelAttributes(): Array<ModelAttribute> {
	const attributes = new Array<ModelAttribute>();
	for (const declaration of DECLARATIONS) {
		for (const { attribute, field, modelDefault, default: fallback } of declaration.settings) {
			const shipped = modelDefault ?? fallback;
			if (attribute !== undefined && shipped !== undefined)
				attributes.push({ attribute, field, modelDefault: shipped });
		}
	}
	return attributes;
}

/** Every declared setting by its field (`sessions.reportLeaves` for a nested one). @internal */
export const SETTINGS = new Map<string, SettingDeclaration>();
for (const declaration of DECLARATIONS)
	for (const setting of declaration.settings) SETTINGS.set(setting.field, setting);

/** The declared default of a setting; an error when it declares none (a mistake in this library, not the game's). @internal */
export function declaredDefault<T extends string | number | boolean>(field: string): T {
	const value = SETTINGS.get(field)?.default;
	if (value === undefined) error(`StaffOps declares no default for ${field}`);
	return value as T;
}

/** Every feature of a running server, by the name its declaration gives. @internal */
export interface ServerFeatures {
	readonly staffHint: StaffHintFeature;
	readonly sessions: SessionsFeature;
	readonly dashboardActions: DashboardActionsFeature;
	readonly crossServer: CrossServerFeature;
	readonly joins: JoinsFeature;
	readonly outageBans: OutageBansFeature;
	readonly presence: PresenceFeature;
	readonly clientReport: ClientReportFeature;
	readonly consent: ConsentFeature;
	readonly staffActivity: StaffActivityFeature;
	readonly supportCalls: SupportCallsFeature;
	readonly joinServer: JoinServerFeature;
	readonly commands: CommandsFeature;
}

/** The name of each running feature, as its declaration gives it (the service's connection is the server's own). @internal */
export type FeatureName = Exclude<(typeof DECLARATIONS)[number]["name"], "service">;

/**
 * {@link ServerFeatures} has exactly one field per declared feature, named as its declaration names it: a misspelt,
 * missing or extra name does not compile (nor does {@link buildFeatures} without one of them). @internal
 */
export type FeaturesListed = [
	CheckedTrue<Same<keyof ServerFeatures, FeatureName>>,
	CheckedTrue<
		AllTrue<{ [K in keyof ServerFeatures]: Same<ServerFeatures[K]["declaration"]["name"], K> }[FeatureName]>
	>,
];

/** Each feature's diagnostics record, by feature name. @internal */
export type ServerDiagnostics = { readonly [K in keyof ServerFeatures]: ReturnType<ServerFeatures[K]["diagnostics"]> };

/**
 * Builds the features, each handed the ones it uses (so each is built after them): the one place that says which
 * feature leans on which.
 * @internal
 */
export function buildFeatures(ctx: ServerContext): ServerFeatures {
	const staffHint = new StaffHintFeature(ctx);
	const sessions = new SessionsFeature(ctx);
	const dashboardActions = new DashboardActionsFeature(ctx);
	const joins = new JoinsFeature(ctx, sessions, staffHint);
	const presence = new PresenceFeature(ctx, joins, sessions, dashboardActions);
	return {
		staffHint,
		sessions,
		dashboardActions,
		crossServer: new CrossServerFeature(ctx, dashboardActions),
		joins,
		outageBans: new OutageBansFeature(ctx, joins),
		presence,
		clientReport: new ClientReportFeature(ctx, joins),
		consent: new ConsentFeature(ctx, joins),
		staffActivity: new StaffActivityFeature(ctx, joins, presence),
		supportCalls: new SupportCallsFeature(ctx, joins, sessions, presence),
		joinServer: new JoinServerFeature(ctx),
		commands: new CommandsFeature(ctx, joins),
	};
}

/** A list in reverse order (roblox-ts arrays have no `reverse`). @internal */
export function reversed<T extends defined>(list: ReadonlyArray<T>): Array<T> {
	const result = new Array<T>();
	for (let i = list.size() - 1; i >= 0; i--) result.push(list[i]);
	return result;
}

/** The built features in start order ({@link DECLARATIONS}' order). @internal */
export function startOrder(features: ServerFeatures): Array<Feature> {
	const order = new Array<Feature>();
	for (const declaration of DECLARATIONS) {
		// The service's connection is the server's own (the context's client and registration): no running feature.
		if (declaration.name !== "service") order.push(features[declaration.name]);
	}
	return order;
}

type FaceOf<D> = D extends { readonly face?: infer F } ? F : never;
type SignalsOf<F> = F extends { readonly signals: infer S } ? S : never;
type FunctionsOf<F> = F extends { readonly functions: (running: never) => infer P } ? P : never;
// What a face's functions reach for; a feature without a face (its running is never given a feature) meets it whatever.
type ReachOf<F> = F extends { readonly functions: (running: () => infer R) => unknown }
	? [R] extends [undefined]
		? unknown
		: NonNullable<R>
	: unknown;
type Intersection<U> = (U extends unknown ? (part: U) => void : never) extends (whole: infer I) => void ? I : never;
type Declaration = (typeof DECLARATIONS)[number];

/**
 * What the features add to `StaffOps`: every face's signals and functions, documented in the feature's `face.ts`.
 * (In the package's declarations for the entry's type; not an API.)
 */
export type FeatureFaces = FaceSignals & FaceFunctions;

/**
 * Every face's signals together: what the features add to `StaffOps` and to the server's signals. (In the package's
 * declarations for the entry's type; not an API.)
 */
export type FaceSignals = Intersection<SignalsOf<FaceOf<Declaration>>>;

/**
 * Each running feature meets what its face reaches for (a face names its own interface, not the feature's class):
 * does not compile otherwise. @internal
 */
export type FacesReachTheirFeatures = CheckedTrue<AllTrue<FaceReached[FeatureName]>>;
type FaceReached = {
	[K in FeatureName]: ServerFeatures[K] extends ReachOf<FaceOf<Extract<Declaration, { name: K }>>> ? true : false;
};

/**
 * Every face's functions together: what the features add to `StaffOps` besides signals. (In the package's declarations
 * for the entry's type; not an API.)
 */
export type FaceFunctions = Intersection<FunctionsOf<FaceOf<Declaration>>>;

/** The features' faces built for one running integration: their signals and their functions, by public name. @internal */
export interface BuiltFaces {
	readonly signals: FaceSignals;
	readonly functions: FaceFunctions;
}

/**
 * Builds every face, in the features' order, its functions reaching the feature through `running` (undefined when
 * StaffOps is not running). A name two faces give is a mistake in this library: an error where it is built.
 * @internal
 */
export function buildFaces(running: () => ServerFeatures | undefined): BuiltFaces {
	const signals: Record<string, unknown> = {};
	const functions: Record<string, unknown> = {};
	const add = (into: Record<string, unknown>, parts: object) => {
		for (const [name, part] of pairs(parts as Record<string, unknown>)) {
			if (signals[name] !== undefined || functions[name] !== undefined)
				error(`StaffOps: two features add StaffOps.${name}`);
			into[name] = part;
		}
	};
	for (const declaration of DECLARATIONS) {
		// Each face reaches for what its own feature meets (FacesReachTheirFeatures checks it), so one cast serves all.
		const face = declaration.face as FeatureFace<object, object, Feature> | undefined;
		if (face === undefined || declaration.name === "service") continue;
		const name = declaration.name;
		add(signals, face.signals);
		add(
			functions,
			face.functions(() => running()?.[name]),
		);
	}
	return { signals: signals as unknown as FaceSignals, functions: functions as unknown as FaceFunctions };
}
