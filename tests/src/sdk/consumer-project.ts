import {
  copyFile,
  mkdir,
  mkdtemp,
  readdir,
  realpath,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { runProgram as run } from '../support/run-program.js';

export const workspaceRoot = fileURLToPath(
  new URL('../../../', import.meta.url),
);
const tests = join(workspaceRoot, 'tests');
const clientPackage = join(workspaceRoot, 'packages/client');
const consumers = fileURLToPath(new URL('./consumers/', import.meta.url));
/** The workspace's TypeScript and Node types: a user brings their own, this project has none. */
const tsc = join(tests, 'node_modules/typescript/bin/tsc');
/** TypeScript 6, for the projects that still resolve as node10 (TypeScript 7 removed it). */
const tsc6 = join(tests, 'node_modules/@typescript/typescript6/bin/tsc6');
const typeRoots = join(tests, 'node_modules/@types');

/** The three ways a user builds a program on the package. */
export type ConsumerKind = 'esm' | 'cjs' | 'bundled';

interface Way {
  /** The name the source takes: its extension says ESM or CommonJS to TypeScript and Node. */
  source: string;
  compilerOptions: Record<string, unknown>;
  /** The compiler such a project has: `tsc` unless said. */
  compiler?: string;
}

const ways: Record<ConsumerKind, Way> = {
  esm: {
    source: 'consumer.mts',
    compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext' },
  },
  // node10 ignores `exports` and reads `main` and `types`, as many CommonJS projects still do.
  // TypeScript 6 deprecates it and compiles with it only when told to; 7 removes it.
  cjs: {
    source: 'consumer.cts',
    compilerOptions: {
      module: 'commonjs',
      moduleResolution: 'node10',
      ignoreDeprecations: '6.0',
    },
    compiler: tsc6,
  },
  // The same ESM declarations as above, checked there already (with @types/node, the costliest part).
  bundled: {
    source: 'consumer.ts',
    compilerOptions: {
      module: 'esnext',
      moduleResolution: 'bundler',
      noEmit: true,
      skipLibCheck: true,
    },
  },
};

/** A consumer program compiled against the installed package, ready for `node`. */
export interface CompiledConsumer {
  kind: ConsumerKind;
  /** The file `node` runs. */
  entry: string;
  /** The declaration file the typecheck took for `@petstore/client`. */
  typesFrom: string;
}

/** Where a bundle runs: Node (CommonJS), or a browser or edge runtime (one script). */
export type BundlePlatform = 'node' | 'browser';

/** A program bundled by esbuild into one file. */
export interface Bundle {
  file: string;
  bytes: number;
  /** Every file the bundle took in, relative to the project. */
  inputs: string[];
}

/** This process's environment without what pnpm sets for the scripts it runs. */
function plainEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(npm|pnpm)_/i.test(name)),
  );
}

/**
 * A project of a user of the published package: a folder under the system's temporary one, far
 * from the workspace, where `@petstore/client` is installed with npm from the tarball `pnpm pack`
 * makes of packages/client (which must be built), and where the consumers are compiled.
 */
export class ConsumerProject implements AsyncDisposable {
  private constructor(
    readonly dir: string,
    readonly tarball: string,
  ) {}

  static async create(): Promise<ConsumerProject> {
    const dir = await realpath(await mkdtemp(join(tmpdir(), 'petstore-sdk-')));
    try {
      const packed = join(dir, 'packed');
      await mkdir(packed);
      await run('pnpm', ['pack', '--pack-destination', packed], {
        cwd: clientPackage,
      });
      const [tarball] = (await readdir(packed)).filter((name) =>
        name.endsWith('.tgz'),
      );
      if (!tarball)
        throw new Error(`[sdk] pnpm pack left no tarball in ${packed}`);
      const project = new ConsumerProject(dir, join(packed, tarball));
      const manifest = {
        name: 'petstore-sdk-consumer',
        version: '0.0.0',
        private: true,
      };
      await writeFile(
        join(dir, 'package.json'),
        JSON.stringify(manifest, null, 2),
      );
      // The tarball has no dependencies: nothing is fetched, from the registry or elsewhere.
      const install = [
        'install',
        '--no-audit',
        '--no-fund',
        '--offline',
        project.tarball,
      ];
      await run('npm', install, { cwd: dir, env: plainEnv() });
      return project;
    } catch (error) {
      await rm(dir, { recursive: true, force: true });
      throw error;
    }
  }

  /** Where the project's node_modules has the package. */
  get installedPackage(): string {
    return join(this.dir, 'node_modules/@petstore/client');
  }

  /**
   * Copies consumers/consumer.ts into a folder of its own under the name its way gives it and
   * typechecks it with `strict` against the installed package; ESM and CommonJS are compiled by
   * tsc, the bundle by esbuild.
   */
  async compile(kind: ConsumerKind): Promise<CompiledConsumer> {
    const { source, compilerOptions, compiler = tsc } = ways[kind];
    const folder = join(this.dir, kind);
    await mkdir(folder);
    await copyFile(join(consumers, 'consumer.ts'), join(folder, source));
    const tsconfig = {
      compilerOptions: {
        strict: true,
        target: 'es2022',
        lib: ['es2022'],
        types: ['node'],
        typeRoots: [typeRoots],
        // The package's declarations are checked too, as a strict user's compiler does.
        skipLibCheck: false,
        rootDir: '.',
        outDir: 'dist',
        ...compilerOptions,
      },
      files: [source],
    };
    await writeFile(
      join(folder, 'tsconfig.json'),
      JSON.stringify(tsconfig, null, 2),
    );
    const trace = await run(process.execPath, [
      compiler,
      '-p',
      folder,
      '--traceResolution',
    ]).catch(async () => {
      // The trace drowns the errors: the same compile again without it says only those.
      const errors = await run(process.execPath, [
        compiler,
        '-p',
        folder,
      ]).catch((error: Error) => error.message);
      throw new Error(`[sdk] the ${kind} consumer does not compile: ${errors}`);
    });
    const typesFrom =
      /Module name '@petstore\/client' was successfully resolved to '([^']+)'/.exec(
        trace,
      )?.[1];
    if (!typesFrom)
      throw new Error(`[sdk] tsc did not resolve @petstore/client for ${kind}`);
    if (kind !== 'bundled') {
      const entry = join(folder, 'dist', source.replace(/\.(m|c)ts$/, '.$1js'));
      return { kind, entry, typesFrom };
    }
    const bundle = await this.bundle(
      join(folder, source),
      join(folder, 'dist/consumer.cjs'),
    );
    return { kind, entry: bundle.file, typesFrom };
  }

  /**
   * Copies a program from consumers/ into the project and typechecks it with `strict` as a
   * browser project does: the DOM's types, no Node types, the package's declarations checked too.
   */
  async typecheckForBrowser(name: string): Promise<void> {
    const folder = join(this.dir, 'browser-types');
    await mkdir(folder, { recursive: true });
    await copyFile(join(consumers, name), join(folder, name));
    const compilerOptions = {
      strict: true,
      target: 'es2022',
      lib: ['es2022', 'dom', 'dom.iterable'],
      types: [],
      module: 'esnext',
      moduleResolution: 'bundler',
      noEmit: true,
      skipLibCheck: false,
    };
    const tsconfig = { compilerOptions, files: [name] };
    await writeFile(
      join(folder, 'tsconfig.json'),
      JSON.stringify(tsconfig, null, 2),
    );
    await run(process.execPath, [tsc, '-p', folder]).catch((error: Error) => {
      throw new Error(
        `[sdk] ${name} does not compile for the browser: ${error.message}`,
      );
    });
  }

  /** Copies a program from consumers/ into the project and bundles it. */
  async bundleProgram(
    name: string,
    platform: BundlePlatform = 'node',
  ): Promise<Bundle> {
    const folder = join(this.dir, 'programs');
    await mkdir(folder, { recursive: true });
    await copyFile(join(consumers, name), join(folder, name));
    const output = name.replace(
      /\.ts$/,
      platform === 'node' ? '.cjs' : `.${platform}.js`,
    );
    return this.bundle(
      join(folder, name),
      join(folder, 'dist', output),
      platform,
    );
  }

  /** esbuild --bundle --minify --platform=<platform>, resolving from the project. */
  async bundle(
    entry: string,
    outfile: string,
    platform: BundlePlatform = 'node',
  ): Promise<Bundle> {
    const { metafile } = await build({
      entryPoints: [entry],
      outfile,
      bundle: true,
      minify: true,
      platform,
      absWorkingDir: this.dir,
      metafile: true,
      logLevel: 'silent',
    });
    return {
      file: outfile,
      bytes: (await stat(outfile)).size,
      inputs: Object.keys(metafile.inputs),
    };
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }
}
