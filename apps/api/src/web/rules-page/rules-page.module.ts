import { Module } from '@nestjs/common';
import { RulesPageController } from './rules-page.controller';
import { RulesPageService } from './rules-page.service';

@Module({ controllers: [RulesPageController], providers: [RulesPageService] })
export class RulesPageModule {}
