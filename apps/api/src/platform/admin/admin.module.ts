import { Module } from '@nestjs/common';
import { AdminController } from './admin.controller';
import { AdminGuard } from './admin.guard';
import { RebuildService } from './rebuild.service';

@Module({ controllers: [AdminController], providers: [AdminGuard, RebuildService], exports: [RebuildService] })
export class AdminModule {}
