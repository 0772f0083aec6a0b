import type { RequestPriority } from "../transport/budget";
import type { Credential } from "../transport/keyRing";
import type { HttpMethod } from "../transport/transport";
import type { ArgSpec } from "./arguments";
import type { CallOptions } from "./callOptions";
import type { Reader } from "./reader";

// How one route is described. Each resource module (`resources/*.ts`) declares its routes with `route(...)`; the
// route table (`routes.ts`) gathers them; the codec (`codec.ts`) and the api client read them.

/** How one operation goes on the wire, how its arguments are checked and how its answer is read. @internal */
export interface RouteSpec {
	readonly method: HttpMethod;
	/** Path template; `{name}` is filled from the path values in order. */
	readonly path: string;
	/** Names of the path values, in order. */
	readonly pathParams: ReadonlyArray<string>;
	readonly hasBody: boolean;
	/** Whether repeating the request after an unknown outcome is harmless; see `RetryOptions`. */
	readonly safeToRepeat: boolean;
	readonly priority: RequestPriority;
	/** The rules of the body's fields (every route with a body has one). */
	readonly args?: ArgSpec;
	/** The tolerant reader of the `success: true` answer. */
	readonly answer: Reader<unknown>;
	/**
	 * Whether a refusal after an attempt whose outcome is unknown may mean that attempt already did the work (a
	 * release refused because the order is already released); the error's message then says so.
	 */
	readonly refusalMayMeanDone: boolean;
	/** Set for a route whose answers can be megabytes: see {@link LargeAnswer}. */
	readonly largeAnswer?: LargeAnswer;
	/** The key the route takes: the API key (`loader-id`) for every route but the ranking one. */
	readonly credential: Credential;
}

/**
 * How a route's large answers are read: up to `maxBytes`, decoded member by member and the members named in `lists`
 * item by item, those first (`jsonSections.ts`), so one bad piece loses only itself and the frame is given back
 * between pieces.
 * @internal
 */
export interface LargeAnswer {
	readonly maxBytes: number;
	readonly lists: ReadonlyArray<string>;
}

/** What a resource module says about one route; the rest of {@link RouteSpec} is derived. @internal */
export interface RouteDeclaration {
	readonly method: HttpMethod;
	readonly path: string;
	readonly safeToRepeat: boolean;
	/** Default `normal`. */
	readonly priority?: RequestPriority;
	readonly args?: ArgSpec;
	readonly answer: Reader<unknown>;
	readonly refusalMayMeanDone?: boolean;
	readonly largeAnswer?: LargeAnswer;
	/** Default true for every method but GET; false sends a PUT or DELETE without a body. */
	readonly hasBody?: boolean;
	/** Default `apiKey`. */
	readonly credential?: Credential;
}

/** Builds a {@link RouteSpec}: the path's value names are read from its template. @internal */
export function route(declaration: RouteDeclaration): RouteSpec {
	const pathParams = new Array<string>();
	for (const [name] of declaration.path.gmatch("{(%w+)}")) pathParams.push(name as string);
	return {
		method: declaration.method,
		path: declaration.path,
		pathParams,
		hasBody: declaration.hasBody ?? declaration.method !== "GET",
		safeToRepeat: declaration.safeToRepeat,
		priority: declaration.priority ?? "normal",
		args: declaration.args,
		answer: declaration.answer,
		refusalMayMeanDone: declaration.refusalMayMeanDone ?? false,
		largeAnswer: declaration.largeAnswer,
		credential: declaration.credential ?? "apiKey",
	};
}

/**
 * The one way a namespace sends an operation: the api client's checked, budgeted, retried call. `Id` is the
 * resource's own operation ids, so a namespace can only send its own routes.
 * @internal
 */
export type Call<Id extends string> = <T>(
	operation: Id,
	options: CallOptions | undefined,
	pathValues: ReadonlyArray<unknown>,
	body?: unknown,
) => Promise<T>;
