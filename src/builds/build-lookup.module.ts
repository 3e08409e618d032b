import { Module } from '@nestjs/common';
import { BuildLookup } from './build-lookup.js';
import { BuildsRepository } from './builds.repository.js';

/**
 * Builds as other modules may read them. A module of its own, depending on nothing but the
 * database, so that releases (which count builds) can import it while builds import
 * releases' look-up.
 */
@Module({ providers: [BuildLookup, BuildsRepository], exports: [BuildLookup] })
export class BuildLookupModule {}
