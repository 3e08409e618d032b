import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { QuotaModule } from '../limits/quota.module.js';
import { Organization } from './entities/organization.entity.js';
import { OrganizationsInternalController } from './organizations.internal.controller.js';
import { OrganizationsController } from './organizations.controller.js';
import { OrganizationsService } from './organizations.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([Organization]), QuotaModule],
  controllers: [OrganizationsController, OrganizationsInternalController],
  providers: [OrganizationsService],
  exports: [OrganizationsService],
})
export class OrganizationsModule {}
